// Glob patterns as ripgrep and Gemini CLI users write them, compiled once and
// matched many times against '/'-separated relative paths: `*` (within one
// path segment), `**` (any number of segments), `?`, `[abc]`, `[a-z]`,
// `[!a]`/`[^a]`, `{a,b}` (nestable), `\x` escapes. `*` and `?` match a leading
// dot. Immutable after compile(); any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/result.h"

namespace lathe::tools {

enum class GlobCase { sensitive, insensitive };

class GlobPattern {
 public:
  // Errc::invalid_params for a pattern that cannot be used (empty, or braces
  // expanding to too many alternatives).
  static Result<GlobPattern> compile(std::string_view pattern, GlobCase sensitivity = GlobCase::sensitive);

  const std::string& text() const { return text_; }

  // Whether the whole relative path matches (no leading or trailing '/').
  bool matches(std::string_view path) const;

  // Whether some path inside directory `dir` (relative, no trailing '/')
  // could match: false lets a walker skip the whole subtree.
  bool couldMatchInside(std::string_view dir) const;

  // The most path segments a match can have, or nullopt when `**` allows any.
  std::optional<size_t> maxSegments() const;

  // Whether the pattern has no wildcards at all (a plain path).
  bool isLiteral() const;

 private:
  struct Token {
    enum Kind : uint8_t { literal, any_char, star, char_class } kind;
    char ch = 0;                 // literal
    uint32_t classIndex = 0;     // char_class
  };
  struct Segment {
    bool globstar = false;       // a whole `**` segment
    std::vector<Token> tokens;
    std::string literal;         // set when the segment is a plain string
    bool isLiteral = false;
  };
  enum class Shape : uint8_t { general, exact, suffix_any_depth, suffix_one_segment, basename_any_depth };
  struct Alternative {
    std::vector<Segment> segments;
    Shape shape = Shape::general;
    std::string fast;            // the string the fast shapes compare with
  };
  struct CharClass {
    uint64_t bits[4] = {0, 0, 0, 0};
    bool negated = false;
    bool test(unsigned char c) const { return (bits[c >> 6] >> (c & 63)) & 1; }
    void set(unsigned char c) { bits[c >> 6] |= uint64_t{1} << (c & 63); }
  };

  Status compileAlternative(std::string_view alt);
  bool matchAlternative(const Alternative& alt, std::string_view path) const;
  bool matchSegment(const Segment& seg, std::string_view name) const;
  bool prefixCouldMatch(const Alternative& alt, std::string_view dir) const;
  char fold(char c) const;

  std::string text_;
  GlobCase sensitivity_ = GlobCase::sensitive;
  std::vector<Alternative> alternatives_;
  std::vector<CharClass> classes_;
};

// `{a,b}` alternatives expanded, nested braces included. Errc::invalid_params
// past `limit` alternatives. Exposed for tests.
Result<std::vector<std::string>> expandBraces(std::string_view pattern, size_t limit = 1024);

// Escapes every glob metacharacter so the text matches only itself.
std::string escapeGlob(std::string_view text);

}  // namespace lathe::tools
