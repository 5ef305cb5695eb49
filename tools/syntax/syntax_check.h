// Syntax errors in a parsed file, and the ones an edit introduced: what the
// edit tools tell the model (and the person) after a write that broke a file.
// Pure; any thread.
//
// The "introduced" rule, made never to cry wolf on a file that was already
// broken: when the text before the edit parsed cleanly (or the file is new),
// every problem after it is the edit's doing. When it was already broken, a
// problem counts only if it lies on the lines the edit changed (one line of
// slack either side) and its line (trimmed) is not the line of a problem that
// was there before. A pre-existing break elsewhere, or one the edit left as it
// was, is never reported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/cancel.h"
#include "tools/syntax/syntax_tree.h"

namespace lathe::tools::syntax {

struct SyntaxProblem {
  int64_t line = 0;     // 1-based
  int64_t column = 0;   // 1-based, in characters
  std::string kind;     // "unexpected `x`" (an ERROR node) or "missing `;`" (a MISSING node)
  std::string snippet;  // "  12 | the line\n     |     ^" (the line cut to ~120 characters)
};

// The outermost ERROR nodes and every MISSING node, in source order, at most
// one per line and `max` in all.
std::vector<SyntaxProblem> findProblems(const SyntaxTree& tree, size_t max = 20);

// Files larger than this (before or after) are not checked.
inline constexpr size_t kMaxCheckedBytes = 2 * 1024 * 1024;

// A warning for the model when writing `after` over `before` (nullopt: a new
// file) at `path` broke its syntax; nullopt when the language is unknown, the
// text is too large, the parse was cancelled or the edit introduced nothing.
std::optional<std::string> describeIntroducedProblems(std::string_view path, std::optional<std::string_view> before,
                                                      std::string_view after, const CancelToken& cancel);

}  // namespace lathe::tools::syntax
