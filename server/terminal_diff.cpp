// The terminal diff: common leading and trailing lines are context, the rest
// is removed then added.
#include "server/terminal_diff.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace lathe::server {
namespace {

constexpr size_t kContext = 3;
constexpr size_t kMaxLines = 400;  // a longer diff is cut: the editor is the place to review it

std::vector<std::string_view> linesOf(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

}  // namespace

std::string terminalDiff(const std::optional<std::string>& oldText, const std::string& newText, bool colour) {
  auto before = linesOf(oldText ? std::string_view(*oldText) : std::string_view());
  auto after = linesOf(newText);
  size_t head = 0;
  while (head < before.size() && head < after.size() && before[head] == after[head]) ++head;
  size_t tail = 0;
  while (tail < before.size() - head && tail < after.size() - head &&
         before[before.size() - 1 - tail] == after[after.size() - 1 - tail]) {
    ++tail;
  }
  std::vector<std::pair<char, std::string_view>> rows;
  size_t from = head - std::min(head, kContext);
  for (size_t i = from; i < head; ++i) rows.emplace_back(' ', before[i]);
  for (size_t i = head; i < before.size() - tail; ++i) rows.emplace_back('-', before[i]);
  for (size_t i = head; i < after.size() - tail; ++i) rows.emplace_back('+', after[i]);
  for (size_t i = after.size() - tail; i < std::min(after.size(), after.size() - tail + kContext); ++i) {
    rows.emplace_back(' ', after[i]);
  }
  std::string out = (oldText ? "--- a\n+++ b\n" : "--- /dev/null\n+++ b\n");
  out += "@@ -" + std::to_string(from + 1) + " +" + std::to_string(from + 1) + " @@\n";
  for (size_t i = 0; i < rows.size() && i < kMaxLines; ++i) {
    auto [mark, text] = rows[i];
    const char* on = mark == '-' ? "\x1b[31m" : mark == '+' ? "\x1b[32m" : "";
    bool paint = colour && mark != ' ';
    out += paint ? on : "";
    out += mark;
    out.append(text);
    out += paint ? "\x1b[0m\n" : "\n";
  }
  if (rows.size() > kMaxLines) out += "... (" + std::to_string(rows.size() - kMaxLines) + " more lines)\n";
  return out;
}

}  // namespace lathe::server
