// Text shown to the person as Markdown, kept literal: a code fence longer than
// any backtick run inside, so output with `#`, `*` or `|` is not mangled.
// Pure.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace lathe::engine {

inline std::string fenced(std::string_view text, std::string_view language = "") {
  size_t longest = 0;
  for (size_t i = 0; i < text.size();) {
    size_t run = 0;
    while (i + run < text.size() && text[i + run] == '`') ++run;
    longest = std::max(longest, run);
    i += run ? run : 1;
  }
  std::string fence(std::max<size_t>(3, longest + 1), '`');
  std::string out;
  out.reserve(text.size() + 2 * fence.size() + language.size() + 2);
  out.append(fence).append(language).append("\n").append(text);
  if (!text.empty() && text.back() != '\n') out += '\n';
  out.append(fence);
  return out;
}

}  // namespace lathe::engine
