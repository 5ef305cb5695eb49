// Shell-style word splitting.
#include "tools/core/shell_words.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace lathe::tools {
namespace {

// A word that reads back as itself without quotes.
bool plainWord(std::string_view word) {
  return !word.empty() && std::none_of(word.begin(), word.end(), [](char c) {
    return std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'' || c == '\\';
  });
}

// Double quotes: inside them splitShellWords unescapes only \" and \\.
std::string quoted(std::string_view word) {
  std::string out = "\"";
  for (char c : word) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

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

std::string joinShellWords(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& word : words) text += (text.empty() ? "" : " ") + (plainWord(word) ? word : quoted(word));
  return text;
}

}  // namespace lathe::tools
