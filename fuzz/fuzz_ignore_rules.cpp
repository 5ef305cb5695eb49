// Fuzz target: ignore-file parsing and matching (.gitignore semantics). The
// input is the file's text, a NUL byte, then paths one per line, each
// checked as a file and as a directory. Invariant: a file without rules
// decides nothing. Single-threaded.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tools/search/ignore_rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace lathe::tools;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t nul = input.find('\0');
  std::string_view text = input.substr(0, nul);
  std::string_view paths = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  auto file = IgnoreFile::parse(text, "");
  while (!paths.empty()) {
    size_t nl = paths.find('\n');
    std::string_view path = paths.substr(0, nl);
    paths = nl == std::string_view::npos ? std::string_view() : paths.substr(nl + 1);
    if (path.empty() || path.front() == '/' || path.back() == '/') continue;
    for (bool isDir : {false, true}) {
      auto verdict = file ? file->match(path, isDir) : IgnoreFile::Verdict::none;
      if (file && file->size() == 0 && verdict != IgnoreFile::Verdict::none) abort();
    }
  }
  return 0;
}
