// Shell-style word splitting.
#include "tools/core/shell_words.h"

#include <cctype>
#include <utility>

namespace lathe::tools {

ShellWords splitShellWords(std::string_view text) {
  ShellWords out;
  std::vector<std::string>& words = out.words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) {
        word += text[++i];
      } else {
        word += c;
      }
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (inWord) words.push_back(std::exchange(word, {}));
      inWord = false;
    } else if (c == '"' || c == '\'') {
      quote = c;
      inWord = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push_back(std::move(word));
  out.unclosedQuote = quote;
  return out;
}

}  // namespace lathe::tools
