// `@path` imports in context files (GEMINI.md): each import outside code is
// replaced by the imported file's text between markers, recursively, with
// the same syntax and markers as Gemini CLI's "tree" format. Imports resolve
// relative to the importing file, must stay inside the allowed folders
// (the workspace roots, or the global folder for the global file), nest at
// most `maxDepth` deep and never repeat a file (so cycles end); a refused or
// failed import leaves a marker saying why. Pure reads; any thread.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "tools/core/workspace.h"

namespace lathe::tools {

struct ImportOptions {
  std::vector<std::string> allowedRoots;  // canonical absolute folders
  int maxDepth = 5;
  size_t maxFileBytes = 1024 * 1024;      // a bigger import is refused
  // Set for a project's files: what git ignores in it (and anything inside
  // .git) is refused too. Files shaped like secrets are refused always.
  const Workspace* workspace = nullptr;
};

// `content` of the file at `filePath` (canonical, absolute) with its imports
// expanded. `seen` holds canonical paths already included (the file itself
// first): a repeat is marked, not read again.
std::string expandImports(const std::string& content, const std::string& filePath, const ImportOptions& options,
                          std::set<std::string>& seen, int depth = 0);

// Whether `path` (canonical) lies in `root` (canonical) or is it.
bool isWithin(const std::string& path, const std::string& root);

}  // namespace lathe::tools
