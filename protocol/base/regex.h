// A regular expression as configuration files write them (Gemini CLI's policy
// patterns are JavaScript regexes; PCRE2 reads the same syntax for what they
// use), searched for anywhere in a text. pcre2.h stays in regex.cpp. Matching
// is bounded: a pattern that backtracks past the limit gives `tooComplex`,
// and the caller decides which side that falls on. Immutable; any thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "protocol/base/result.h"

namespace lathe {

class Regex {
 public:
  enum class Match { no, yes, tooComplex };

  // Errc::invalid_params naming the problem and where in the pattern it is.
  static Result<Regex> compile(std::string_view pattern);

  // Whether the pattern matches somewhere in `text`.
  Match search(std::string_view text) const;
  const std::string& pattern() const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

}  // namespace lathe
