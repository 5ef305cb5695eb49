// The generated source tree the search and snapshot benchmarks run on:
// `packages` x 25 modules x 40 files of code-like text (1 to 18 KB each),
// .gitignore files, ignored folders full of text and a binary file. Made once
// and cached (a stamp file records its size).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace lathe::bench {

struct TreeStats {
  size_t files = 0;
  size_t bytes = 0;
};

// Writes the tree at `root` (removing what was there).
TreeStats generateTree(const std::string& root, int packages);
// The tree at `root` if it was generated there.
std::optional<TreeStats> cachedTree(const std::string& root);

}  // namespace lathe::bench
