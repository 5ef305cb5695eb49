// The second and third chances replace gives an old_string that matches
// nowhere exactly: whole lines compared without their leading and trailing
// whitespace (what models get wrong most: indentation), then also with the
// whitespace inside them loosened (runs of blanks as one, none needed next
// to punctuation: "f( a,b )" is "f(a, b)"), and new_string re-indented to
// where the match was found. Pure; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lathe::tools {

struct FlexibleMatch {
  size_t begin = 0;  // the first matched line's start in the text
  size_t end = 0;    // just past the last matched line's text (its '\n' excluded)
  std::string replacement;  // new_string, re-indented like the matched lines
};

// Every non-overlapping run of lines of `text` equal, line by line and
// ignoring surrounding whitespace, to the lines of `oldString` (blank lines
// at its ends dropped), left to right. Empty when oldString has no text.
enum class LineMatch { trimmed, looseWhitespace };
std::vector<FlexibleMatch> flexibleMatches(std::string_view text, std::string_view oldString,
                                           std::string_view newString, LineMatch how = LineMatch::trimmed);

// A line's text with whitespace loosened as LineMatch::looseWhitespace compares it.
std::string looseLine(std::string_view line);

}  // namespace lathe::tools
