// Finding the closest run of lines to a missed old_string. Pure; any thread.
#include "tools/files/closest_text.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

namespace lathe::tools {
namespace {

constexpr size_t kMaxShownLines = 30;
constexpr double kMinSimilarity = 0.5;

std::vector<std::string_view> linesOf(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    lines.push_back(text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

// Identifiers, numbers and punctuation marks, each a token.
std::set<std::string_view> tokensOf(std::string_view line) {
  std::set<std::string_view> tokens;
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80); };
  for (size_t i = 0; i < line.size();) {
    if (std::isspace(static_cast<unsigned char>(line[i]))) {
      ++i;
      continue;
    }
    size_t end = i + 1;
    if (word(line[i])) {
      while (end < line.size() && word(line[end])) ++end;
    }
    tokens.insert(line.substr(i, end - i));
    i = end;
  }
  return tokens;
}

double similarity(const std::set<std::string_view>& a, const std::set<std::string_view>& b) {
  if (a.empty() || b.empty()) return 0;
  size_t shared = 0;
  for (const auto& token : a) shared += b.count(token);
  return static_cast<double>(shared) / static_cast<double>(std::max(a.size(), b.size()));
}

}  // namespace

std::optional<ClosestText> closestText(std::string_view text, std::string_view oldString) {
  std::vector<std::string_view> wanted = linesOf(oldString);
  std::erase_if(wanted, [](std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; });
  if (wanted.empty()) return std::nullopt;
  // The first and last lines of old_string anchor it; the best-scoring line
  // of the file for either places the window.
  const auto first = tokensOf(wanted.front());
  const auto last = tokensOf(wanted.back());
  const std::vector<std::string_view> lines = linesOf(text);
  const size_t span = std::min(wanted.size(), kMaxShownLines);
  double best = 0;
  size_t at = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto tokens = tokensOf(lines[i]);
    if (double s = similarity(first, tokens); s > best) best = s, at = i;
    if (double s = similarity(last, tokens); s > best) best = s, at = i + 1 >= span ? i + 1 - span : 0;
  }
  if (best < kMinSimilarity) return std::nullopt;
  ClosestText closest;
  closest.line = at + 1;
  for (size_t i = at; i < std::min(lines.size(), at + span); ++i) {
    closest.text += std::string(lines[i]) + (i + 1 < std::min(lines.size(), at + span) ? "\n" : "");
  }
  return closest;
}

}  // namespace lathe::tools
