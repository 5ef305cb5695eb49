// Raw command output turned into the text a terminal would have shown: valid
// UTF-8, no ANSI escape sequences, carriage-return overwrites applied, no
// stray control characters. Pure; any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lathe::tools::shell {

std::string terminalText(std::string_view raw);

// Characters (UTF-8 code points) in valid or nearly valid UTF-8 text.
size_t countChars(std::string_view text);

// The largest n <= max such that text[0, n) does not end inside a UTF-8
// sequence (for max >= size: the text without a trailing incomplete one);
// and the smallest n >= min at which a sequence starts.
size_t utf8FloorBoundary(std::string_view text, size_t max);
size_t utf8CeilBoundary(std::string_view text, size_t min);

}  // namespace lathe::tools::shell
