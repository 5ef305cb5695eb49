// A bounded outline of a workspace folder for the model's first look: the
// entries nearest the root first (breadth first), ignore files honoured, at
// most `maxItems` entries, folders cut short marked with "…". Symlinked
// folders are listed, never entered. The calling thread; cancellable.
#pragma once

#include <cstddef>
#include <string>

#include "protocol/base/cancel.h"
#include "tools/search/ignore_rules.h"

namespace lathe::engine {

struct FolderTreeOptions {
  size_t maxItems = 200;
  tools::IgnoreOptions ignore;  // .gitignore and .geminiignore by default
};

// The tree of `root` (absolute), one entry a line; empty when it cannot be read.
std::string folderTree(const std::string& root, const FolderTreeOptions& options, const CancelToken& cancel);

}  // namespace lathe::engine
