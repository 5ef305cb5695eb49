// Finding the lines of a buffer that match a search pattern: a regex (PCRE2
// with JIT) or a fixed string, case-sensitive or not. Plain literals skip the
// regex engine; regexes with a required literal are prefiltered by it, and
// the regex runs only on the candidate lines. A compiled matcher is immutable
// and shared by threads; each thread brings its own MatchScratch.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/base/result.h"

namespace lathe::tools {

struct TextQuery {
  std::string pattern;
  bool caseSensitive = false;
  bool fixedStrings = false;  // the pattern is a literal, not a regex
};

struct LineSpan {
  size_t start = 0;  // first byte of the line
  size_t end = 0;    // the '\n' ending it, or the end of the text
};

struct MatchScratch;  // per-thread match state (PCRE2 match data, JIT stack)

class TextMatcher {
 public:
  // Errc::invalid_params naming the problem and its offset for a bad regex.
  static Result<TextMatcher> compile(const TextQuery& query);

  std::shared_ptr<MatchScratch> makeScratch() const;

  // The first line at or after `from` (a line start) that holds a match.
  std::optional<LineSpan> nextMatchingLine(std::string_view text, size_t from, MatchScratch& scratch) const;

  // Whether one line (without its '\n') holds a match.
  bool matchesLine(std::string_view line, MatchScratch& scratch) const;

  // How the matcher works, for tests and benchmarks: "literal", "regex",
  // or "regex+prefilter".
  std::string strategy() const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

// Number of '\n' bytes in text. Fast; for turning offsets into line numbers.
size_t countNewlines(std::string_view text);

}  // namespace lathe::tools
