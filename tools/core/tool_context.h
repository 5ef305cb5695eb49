// What built-in tools share within one session: the workspace and limits.
// Immutable after the session starts; any thread.
#pragma once

#include <cstdint>
#include <memory>

#include "tools/core/file_store.h"
#include "tools/core/workspace.h"

namespace lathe::tools {

struct ToolLimits {
  int64_t readDefaultLines = 2000;
  int64_t maxLineChars = 2000;
  int64_t maxFileBytes = 20 * 1024 * 1024;
  int64_t grepDefaultMaxMatches = 100;
  int64_t globMaxResults = 1000;             // paths listed by glob
  int64_t readManyMaxBytes = 1024 * 1024;    // text read_many_files returns in all
  unsigned walkThreads = 0;                  // file walker threads for searches; 0: the default (file_walker.h)
};

namespace shell {
class BackgroundProcesses;
}

// How run_shell_command runs commands (settings and flags).
struct ShellOptions {
  bool sandbox = false;            // run under bubblewrap
  bool sandboxNetwork = false;     // let sandboxed commands reach the network
  int64_t inactivitySeconds = 300; // no output for this long ends the command
  int64_t maxOutputChars = 40'000; // beyond this, the model gets head and tail
};

struct ToolContext {
  std::shared_ptr<const Workspace> workspace;
  std::shared_ptr<FileStore> files;  // edits go through it (disk or editor)
  ToolLimits limits;
  ShellOptions shell;
  std::string sessionDataDir;  // per-session files (full shell output); created on demand
  std::shared_ptr<shell::BackgroundProcesses> background;  // the session's background commands
};

}  // namespace lathe::tools

#include <optional>
#include <string>
#include <string_view>

#include "tools/core/tool.h"

namespace lathe::tools {

// A model-supplied path resolved inside the workspace, or the tool error for it.
struct ResolvedPath {
  std::string path;
  std::optional<ToolError> error;
};
ResolvedPath resolveToolPath(const Workspace& workspace, std::string_view path);

}  // namespace lathe::tools
