// Where bash ends a here-doc. Pure; any thread.
#include "tools/shell/heredoc_end.h"

namespace lathe::tools::shell {

std::optional<std::string> heredocDelimiter(std::string_view word) {
  std::string out;
  for (size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    if (c == '$' && i + 1 < word.size() && (word[i + 1] == '\'' || word[i + 1] == '"')) {
      // $'...' and $"..." lose their quotes; escapes inside $'...' would be
      // decoded or not depending on the shell: not certain, so no answer.
      if (word[i + 1] == '\'' && word.find('\\', i) != std::string_view::npos) return std::nullopt;
      continue;
    }
    if (c == '\\') {
      if (++i >= word.size()) return std::nullopt;
      out += word[i];
    } else if (c == '\'') {
      size_t close = word.find('\'', i + 1);
      if (close == std::string_view::npos) return std::nullopt;
      out.append(word.substr(i + 1, close - i - 1));
      i = close;
    } else if (c == '"') {
      size_t j = i + 1;
      for (; j < word.size() && word[j] != '"'; ++j) {
        if (word[j] == '\\' && j + 1 < word.size() && std::string_view("$`\"\\\n").find(word[j + 1]) != std::string_view::npos) ++j;
        out += word[j];
      }
      if (j >= word.size()) return std::nullopt;
      i = j;
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

bool endsInOddBackslashes(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && line[line.size() - 1 - n] == '\\') ++n;
  return n % 2 == 1;
}

}  // namespace

bool bashEndsHeredocAt(std::string_view source, size_t bodyStart, size_t endLine, std::string_view delimiter,
                       bool quoted, bool stripTabs) {
  size_t at = bodyStart;
  while (at <= source.size()) {
    // One logical line: physical lines joined by backslash-newline when unquoted.
    size_t logicalStart = at;
    std::string logical;
    bool joined = false;
    while (true) {
      size_t newline = source.find('\n', at);
      std::string_view line = source.substr(at, newline == std::string_view::npos ? std::string_view::npos : newline - at);
      if (stripTabs) {
        size_t tabs = line.find_first_not_of('\t');
        line.remove_prefix(tabs == std::string_view::npos ? line.size() : tabs);
      }
      at = newline == std::string_view::npos ? source.size() + 1 : newline + 1;
      if (!quoted && endsInOddBackslashes(line) && newline != std::string_view::npos) {
        logical.append(line.substr(0, line.size() - 1));
        joined = true;
        continue;
      }
      logical.append(line);
      break;
    }
    if (logical == delimiter) return logicalStart == endLine && !joined;
    if (logicalStart >= endLine) return false;  // the parse's end line is not bash's
  }
  return false;
}

}  // namespace lathe::tools::shell
