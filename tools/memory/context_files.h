// Finding the context files (GEMINI.md, or the names in settings
// context.fileName) of a session, in the order they are given to the model:
// the global ones (~/.gemini), then for each workspace root those from its
// project root (the nearest folder above holding a boundary marker such as
// .git) down to the root, then those below the root found by a bounded
// breadth-first scan that honours .gitignore and .geminiignore. Each file's
// @path imports are expanded (memory_imports.h). Reads only; any thread.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "protocol/base/cancel.h"
#include "tools/core/workspace.h"

namespace lathe::tools {

struct ContextFileOptions {
  std::vector<std::string> fileNames{"GEMINI.md"};
  std::string globalDir;  // ~/.gemini (absolute); empty: no global files
  std::vector<std::string> boundaryMarkers{".git"};
  size_t maxScanDirs = 200;  // folders the scan below a workspace root reads, at most
  int maxImportDepth = 5;
};

struct ContextFile {
  enum class Tier { global, project };
  Tier tier = Tier::project;
  std::string path;     // canonical absolute
  std::string content;  // trimmed, imports expanded; never empty
};

// Every context file of the workspace, in order, each once (by canonical
// path); empty and unreadable files are left out.
std::vector<ContextFile> discoverContextFiles(const Workspace& workspace, const ContextFileOptions& options,
                                              const CancelToken& cancel);

// The context files in the folders from the root holding `path` down to
// `path` (its folder when it is a file), root first, that `known` does not
// hold yet: what a tool touching `path` brings in just in time. `path` is
// canonical and inside the workspace; files .geminiignore ignores are left
// out. Their paths are added to `known`.
std::vector<ContextFile> contextFilesAlong(const Workspace& workspace, const std::string& path,
                                           const ContextFileOptions& options, std::set<std::string>& known);

// The global memory file save_memory and /memory add write: the first
// context file name in the global folder; empty without a global folder.
std::string globalMemoryFile(const ContextFileOptions& options);

// The block that presents one file to the model:
// "--- Context from: <path> ---\n<content>\n--- End of Context from: <path> ---".
std::string contextBlock(const ContextFile& file);

}  // namespace lathe::tools
