// Finding syntax problems in a tree, and telling which ones an edit introduced.
#include "tools/syntax/syntax_check.h"
#include "protocol/base/text.h"

#include <algorithm>
#include <unordered_set>

namespace lathe::tools::syntax {
namespace {

constexpr size_t kSnippetChars = 120;   // a longer line is shown as a window around the problem
constexpr size_t kTokenChars = 40;      // the unexpected text quoted in `kind`
constexpr size_t kCompared = 500;       // problems compared between before and after
constexpr size_t kShown = 5;            // problems written into the warning

bool isContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

size_t charCount(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) { return !isContinuation(c); }));
}

// The byte offset of the n-th character (or text.size()).
size_t byteOfChar(std::string_view text, size_t n) {
  size_t at = 0;
  for (size_t seen = 0; at < text.size(); ++at) {
    if (isContinuation(text[at])) continue;
    if (seen++ == n) return at;
  }
  return text.size();
}

// At most `limit` characters of the first non-blank line of `text`.
std::string quoteShort(std::string_view text, size_t limit) {
  text = text::trim(text);
  text = text::trim(text.substr(0, text.find('\n')));
  if (charCount(text) <= limit) return std::string(text);
  return std::string(text.substr(0, byteOfChar(text, limit - 3))) + "...";
}

// `x` in backquotes, with line breaks and tabs made visible.
std::string backquoted(std::string_view text) {
  std::string out = "`";
  for (char c : text) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else out += c;
  }
  return out + "`";
}

// Where a problem starts: its row, its line (without the line break) and the
// byte offset in that line. A problem at the very end, after the last line
// break, is put at the end of the last line (that line number exists).
struct Place {
  uint32_t row = 0;
  std::string_view line;
  size_t column = 0;
};
Place placeOf(std::string_view source, TSNode node) {
  const TSPoint point = ts_node_start_point(node);
  const size_t byte = std::min<size_t>(ts_node_start_byte(node), source.size());
  Place place{point.row, {}, point.column};
  size_t start = byte >= point.column ? byte - point.column : 0;
  if (byte == source.size() && point.column == 0 && point.row > 0 && byte > 0) {
    place.row -= 1;
    // source[byte - 1] is the last line break; the line ends there.
    const size_t previous = byte >= 2 ? source.rfind('\n', byte - 2) : std::string_view::npos;
    start = previous == std::string_view::npos ? 0 : previous + 1;
    place.column = std::string_view::npos;  // the end of the line, below
  }
  const size_t end = source.find('\n', start);
  place.line = source.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  if (!place.line.empty() && place.line.back() == '\r') place.line.remove_suffix(1);
  place.column = std::min(place.column, place.line.size());
  return place;
}

// "  12 | line" and a caret line under characters [from, from + width) of it.
std::string snippetOf(std::string_view line, int64_t lineNumber, size_t from, size_t width) {
  const size_t chars = charCount(line);
  size_t first = 0;  // the first character shown
  if (chars > kSnippetChars) first = std::min(from > kSnippetChars / 2 ? from - kSnippetChars / 2 : 0, chars - kSnippetChars);
  const size_t last = std::min(chars, first + kSnippetChars);
  const size_t begin = byteOfChar(line, first);
  std::string_view shown = line.substr(begin, byteOfChar(line, last) - begin);

  const std::string number = std::to_string(lineNumber);
  std::string text = "  " + number + " | " + (first > 0 ? "..." : "") + std::string(shown) + (last < chars ? "..." : "");
  std::string caret = "  " + std::string(number.size(), ' ') + " | " + (first > 0 ? "   " : "");
  // Keep tabs so the caret lines up with the text above it.
  const size_t lead = std::min(from, last) - first;
  std::string_view before = shown.substr(0, byteOfChar(shown, lead));
  for (char c : before) {
    if (c == '\t') caret += '\t';
    else if (!isContinuation(c)) caret += ' ';
  }
  caret.append(std::max<size_t>(1, std::min(width, last > from ? last - from : 1)), '^');
  return text + "\n" + caret;
}

struct Found {
  SyntaxProblem problem;
  std::string_view line;  // the source line, for comparing before and after
};

SyntaxProblem describe(const SyntaxTree& tree, TSNode node, std::string_view& lineOut) {
  const Place place = placeOf(tree.source(), node);
  lineOut = place.line;
  const size_t columnChars = charCount(place.line.substr(0, place.column));

  SyntaxProblem problem;
  problem.line = static_cast<int64_t>(place.row) + 1;
  problem.column = static_cast<int64_t>(columnChars) + 1;
  size_t width = 1;
  if (ts_node_is_missing(node)) {
    std::string_view type = ts_node_type(node);
    problem.kind = "missing " + (ts_node_is_named(node) ? std::string(type) : backquoted(type));
  } else {
    std::string token = quoteShort(tree.text(node), kTokenChars);
    problem.kind = token.empty() ? std::string("unexpected input") : "unexpected " + backquoted(token);
    // Underline the error as far as it goes on its first line.
    const TSPoint end = ts_node_end_point(node);
    const size_t endByte = end.row == place.row ? std::min<size_t>(end.column, place.line.size()) : place.line.size();
    if (endByte > place.column) width = charCount(place.line.substr(place.column, endByte - place.column));
  }
  problem.snippet = snippetOf(place.line, problem.line, columnChars, width);
  return problem;
}

// Walks only the subtrees that hold errors; does not look inside ERROR nodes
// (their first token is where the parser got lost; inner ones follow from it).
std::vector<Found> collect(const SyntaxTree& tree, size_t max) {
  std::vector<Found> found;
  if (max == 0 || !ts_node_has_error(tree.root())) return found;
  std::unordered_set<int64_t> lines;
  TSTreeCursor cursor = ts_tree_cursor_new(tree.root());
  bool done = false;
  while (!done && found.size() < max) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    bool descend = ts_node_has_error(node);
    if (ts_node_is_error(node) || ts_node_is_missing(node)) {
      descend = false;
      Found f;
      f.problem = describe(tree, node, f.line);
      if (lines.insert(f.problem.line).second) found.push_back(std::move(f));
    }
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        done = true;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
  return found;
}

// 1-based line of a byte offset.
int64_t lineOfByte(std::string_view text, size_t byte) {
  byte = std::min(byte, text.size());
  return static_cast<int64_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte), '\n')) + 1;
}

// The lines of `after` an edit changed, by common prefix and suffix.
std::pair<int64_t, int64_t> changedLines(std::string_view before, std::string_view after) {
  const size_t limit = std::min(before.size(), after.size());
  size_t prefix = 0;
  while (prefix < limit && before[prefix] == after[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < limit - prefix && before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix]) ++suffix;
  const size_t end = after.size() - suffix;  // [prefix, end) is new text
  const int64_t first = lineOfByte(after, prefix);
  const int64_t last = end > prefix ? lineOfByte(after, end - 1) : first;
  return {first, last};
}

std::string warning(std::string_view path, Language language, const std::vector<Found>& problems) {
  std::string text = "Warning: this edit left ";
  text += problems.size() == 1 ? std::string("a syntax error") : std::to_string(problems.size()) + " syntax errors";
  text += " in " + std::string(path) + " (" + toString(language) + "):\n";
  for (size_t i = 0; i < problems.size() && i < kShown; ++i) {
    const SyntaxProblem& p = problems[i].problem;
    text += "line " + std::to_string(p.line) + ":" + std::to_string(p.column) + ": " + p.kind + "\n" + p.snippet + "\n";
  }
  if (problems.size() > kShown) text += "(and " + std::to_string(problems.size() - kShown) + " more)\n";
  text += "The file was written; fix the syntax with another edit (if the code is valid and only the parser is "
          "confused, e.g. by a macro, ignore this).";
  return text;
}

}  // namespace

std::vector<SyntaxProblem> findProblems(const SyntaxTree& tree, size_t max) {
  std::vector<SyntaxProblem> problems;
  for (auto& f : collect(tree, max)) problems.push_back(std::move(f.problem));
  return problems;
}

std::optional<std::string> describeIntroducedProblems(std::string_view path, std::optional<std::string_view> before,
                                                      std::string_view after, const CancelToken& cancel) {
  const auto language = languageForPath(path);
  if (!language || cancel.cancelled()) return std::nullopt;
  if (after.size() > kMaxCheckedBytes || (before && before->size() > kMaxCheckedBytes)) return std::nullopt;
  auto afterTree = SyntaxTree::parse(*language, std::string(after), cancel);
  if (!afterTree) return std::nullopt;
  std::vector<Found> problems = collect(*afterTree, kCompared);
  if (problems.empty()) return std::nullopt;

  if (before && !before->empty()) {
    auto beforeTree = SyntaxTree::parse(*language, std::string(*before), cancel);
    if (!beforeTree) return std::nullopt;
    const std::vector<Found> old = collect(*beforeTree, kCompared);
    if (!old.empty()) {
      std::unordered_set<std::string_view> oldLines;
      for (const auto& f : old) oldLines.insert(text::trim(f.line));
      // Not a structured binding: clang before 16 cannot capture those in a lambda.
      const auto changed = changedLines(*before, after);
      const auto first = changed.first, last = changed.second;
      std::erase_if(problems, [&](const Found& f) {
        return f.problem.line < first - 1 || f.problem.line > last + 1 || oldLines.count(text::trim(f.line)) > 0;
      });
      if (problems.empty()) return std::nullopt;
    }
  }
  return warning(path, *language, problems);
}

}  // namespace lathe::tools::syntax
