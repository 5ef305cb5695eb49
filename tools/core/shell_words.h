// Splitting text into words the way a shell would, for settings that name
// commands and for slash-command input. Pure; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lathe::tools {

struct ShellWords {
  std::vector<std::string> words;  // an unclosed quote runs to the end of the text
  char unclosedQuote = 0;          // the quote left open, if any (callers decide what it means)
};

// Blanks separate words, single and double quotes group them, a backslash
// escapes the next character (inside double quotes only " and \).
ShellWords splitShellWords(std::string_view text);

// Words joined by spaces, each double-quoted when it would not read back as
// itself: splitShellWords(joinShellWords(words)).words == words.
std::string joinShellWords(const std::vector<std::string>& words);

}  // namespace lathe::tools
