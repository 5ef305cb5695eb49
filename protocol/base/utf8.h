// UTF-8 validity: everything Lathe writes (to the editor, model APIs, MCP
// servers, files of its own) is valid UTF-8. Invalid sequences, surrogates
// (a lone \udc00 escape decodes into one) and overlong forms become U+FFFD.
// Pure; any thread.
#pragma once

#include <string>
#include <string_view>

namespace lathe::utf8 {

bool isValid(std::string_view text);
// The text with every invalid sequence replaced by U+FFFD.
std::string sanitize(std::string_view text);

}  // namespace lathe::utf8
