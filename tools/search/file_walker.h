// A parallel walk over the files below a directory of the workspace, honouring
// ignore rules (.gitignore, .geminiignore, extra patterns; `.git` is always
// skipped), never leaving the workspace through a symlink, cancellable. The
// caller's thread and `threads - 1` helpers pop directories from a shared
// stack; the visitor runs on all of them at once.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "tools/search/ignore_rules.h"
#include "tools/core/workspace.h"

namespace lathe::tools {

struct WalkEntry {
  std::string_view path;  // absolute; path.data() is NUL-terminated
  std::string_view rel;   // relative to the start directory
  bool isSymlink = false; // a link to a file inside the workspace
  unsigned worker = 0;    // which walker thread, in [0, walkThreads(options))
};

enum class WalkControl { proceed, stop };
using WalkVisitor = std::function<WalkControl(const WalkEntry&)>;

struct WalkOptions {
  std::string root;   // where ignore files are read from (absolute, canonical)
  std::string start;  // the directory to walk: root or a directory inside it
  IgnoreOptions ignore;
  bool followSymlinks = false;          // into symlinked directories
  const Workspace* confine = nullptr;   // symlink targets must stay inside it
  std::optional<size_t> maxDepth;       // path segments below start (1: direct children only)
  // Return false to skip the subtree at `relDir` (relative to start).
  std::function<bool(std::string_view relDir)> descend;
  unsigned threads = 0;                 // 0: the default, more than cores (walking is I/O-bound)
};

struct WalkStats {
  size_t files = 0;     // visited
  size_t dirs = 0;      // read
  size_t ignored = 0;   // entries left out by the ignore rules
  size_t unreadable = 0;
  bool stopped = false;   // a visitor asked to stop
  bool cancelled = false;
};

unsigned walkThreads(const WalkOptions& options);

// The workspace root holding `path` (canonical, inside the workspace): the
// deepest one when roots nest.
std::string workspaceRootOf(const Workspace& workspace, const std::string& path);

// Whether the .geminiignore files of the workspace root holding `path` (a
// file, canonical, inside the workspace) ignore it. Tools that read a file
// named to them check this (not .gitignore: build outputs and local
// configuration are often worth reading), as Gemini CLI's read_file does.
bool ignoredByGeminiIgnore(const Workspace& workspace, const std::string& path);
// The error those tools give for such a file.
std::string geminiIgnoredMessage(const std::string& path);
// Whether git ignores `path` (.gitignore files and .git/info/exclude from the
// repository holding the root, or the root; anything inside .git counts):
// such a file is read only when the person allows it.
bool ignoredByGitIgnore(const Workspace& workspace, const std::string& path, bool isDir = false);

// Errc::not_found / invalid_params when start is missing or not a directory.
Result<WalkStats> walkFiles(const WalkOptions& options, const CancelToken& cancel, const WalkVisitor& visit);

}  // namespace lathe::tools
