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
// How much of text ends on a whole character: a lead byte near the end whose
// sequence is cut short (the rest comes with the next chunk of a stream) is
// left out, with what follows it.
size_t wholeLength(std::string_view text);

}  // namespace lathe::utf8
