// Fuzz target: the configuration formats people and workspaces write (TOML
// commands and policies, YAML frontmatter of skills and agents). The first
// byte picks the reader. Invariants: no crash, no unbounded recursion, every
// line a document reports lies inside the input. Single-threaded.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "protocol/formats/frontmatter.h"
#include "protocol/formats/toml.h"

namespace {
void require(bool condition) {
  if (!condition) abort();
}

void checkLines(const lathe::formats::LocatedDocument& doc, std::string_view text) {
  int lines = 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  for (const auto& [path, line] : doc.lines) require(line >= 0 && line <= lines);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1) {
    if (auto doc = lathe::formats::parseToml(text, "f.toml")) checkLines(*doc, text);
  } else if (auto parsed = lathe::formats::parseFrontmatter(text, "F.md")) {
    checkLines(parsed->fields, text);
    require(parsed->bodyLine >= 2);
  }
  return 0;
}
