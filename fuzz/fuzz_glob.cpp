// Fuzz target: glob compilation and matching. The input is a pattern, a NUL
// byte, then a path. Invariants: a pattern escaped with escapeGlob matches
// exactly its own text; matches() agrees with couldMatchInside() on the
// path's parent (a walker must not skip a directory holding a match).
// Single-threaded.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tools/search/glob_match.h"

namespace {
void require(bool condition) {
  if (!condition) abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace lathe::tools;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t nul = input.find('\0');
  std::string_view pattern = input.substr(0, nul);
  std::string_view path = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  auto sensitivity = size > 0 && data[size - 1] & 1 ? GlobCase::insensitive : GlobCase::sensitive;
  auto glob = GlobPattern::compile(pattern, sensitivity);
  if (glob) {
    bool matched = glob->matches(path);
    size_t slash = path.rfind('/');
    if (matched && slash != std::string_view::npos && slash > 0) require(glob->couldMatchInside(path.substr(0, slash)));
    (void)glob->maxSegments();
  }
  bool plain = !path.empty() && path.front() != '/' && path.back() != '/' && path.find("//") == std::string_view::npos;
  if (plain) {
    auto literal = GlobPattern::compile(escapeGlob(path));
    require(literal.ok() && literal->matches(path) && literal->isLiteral());
  }
  (void)expandBraces(pattern, 64);
  return 0;
}
