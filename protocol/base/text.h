// Small text helpers every layer uses: trimming, ASCII lower case, joining.
// Pure; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lathe::text {

// What std::isspace accepts in the C locale.
inline constexpr std::string_view kBlanks = " \t\r\n\f\v";

std::string_view trim(std::string_view text, std::string_view blanks = kBlanks);
std::string_view trimLeft(std::string_view text, std::string_view blanks = kBlanks);
std::string_view trimRight(std::string_view text, std::string_view blanks = kBlanks);

// ASCII letters lowered; other bytes (UTF-8 included) as they are.
std::string lower(std::string_view text);

std::string join(const std::vector<std::string>& items, std::string_view separator);

// The first line of `text`, cut to at most maxBytes on a UTF-8 character
// boundary and marked "…" when cut (a title, a task in one line).
std::string firstLine(std::string_view text, size_t maxBytes);

}  // namespace lathe::text
