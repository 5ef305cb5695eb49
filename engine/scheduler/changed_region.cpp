// The common head and tail of the two texts, found a 4 KB block at a time,
// then widened to whole lines and kRegionContextLines more on each side.
#include "engine/scheduler/changed_region.h"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace lathe::engine {
namespace {

constexpr size_t kBlock = 4096;

size_t commonPrefix(std::string_view a, std::string_view b) {
  const size_t most = std::min(a.size(), b.size());
  size_t same = 0;
  while (same + kBlock <= most && std::memcmp(a.data() + same, b.data() + same, kBlock) == 0) same += kBlock;
  while (same < most && a[same] == b[same]) ++same;
  return same;
}

// The common tail, not reaching into the first `prefix` bytes of either.
size_t commonSuffix(std::string_view a, std::string_view b, size_t prefix) {
  const size_t most = std::min(a.size(), b.size()) - prefix;
  size_t same = 0;
  while (same + kBlock <= most &&
         std::memcmp(a.data() + a.size() - same - kBlock, b.data() + b.size() - same - kBlock, kBlock) == 0) {
    same += kBlock;
  }
  while (same < most && a[a.size() - 1 - same] == b[b.size() - 1 - same]) ++same;
  return same;
}

// The start of the line `lines` lines before the one holding `at`.
size_t linesBack(std::string_view text, size_t at, int lines) {
  size_t from = at;
  for (int n = 0;; ++n) {
    if (from == 0) return 0;
    size_t nl = text.rfind('\n', from - 1);
    if (nl == std::string_view::npos) return 0;
    if (n == lines) return nl + 1;
    from = nl;
  }
}

// The end (after its newline) of the line `lines` lines after the one holding `at`.
size_t linesForward(std::string_view text, size_t at, int lines) {
  size_t end = at;
  for (int n = 0; n <= lines; ++n) {
    size_t nl = text.find('\n', end);
    if (nl == std::string_view::npos) return text.size();
    end = nl + 1;
  }
  return end;
}

}  // namespace

int64_t narrowToChange(std::optional<std::string>& oldText, std::string& newText) {
  if (!oldText || oldText->size() + newText.size() <= kWholeDiffBytes) return 1;
  std::string_view before(*oldText), after(newText);
  const size_t prefix = commonPrefix(before, after);
  const size_t suffix = commonSuffix(before, after, prefix);
  // The region begins on a line both texts share (the prefix is common) ...
  const size_t begin = linesBack(before, prefix, kRegionContextLines);
  // ... and ends kRegionContextLines lines into the common tail of each.
  const size_t oldEnd = linesForward(before, before.size() - suffix, kRegionContextLines);
  const size_t newEnd = linesForward(after, after.size() - suffix, kRegionContextLines);
  const int64_t line = 1 + std::count(before.begin(), before.begin() + static_cast<std::ptrdiff_t>(begin), '\n');
  std::string oldRegion(before.substr(begin, oldEnd - begin));
  std::string newRegion(after.substr(begin, newEnd - begin));
  oldText = std::move(oldRegion);
  newText = std::move(newRegion);
  return line;
}

}  // namespace lathe::engine
