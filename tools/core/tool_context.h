// What built-in tools share within one session: the workspace and limits.
// Immutable after the session starts; any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "protocol/acp/updates.h"
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

struct ToolContext {
  std::shared_ptr<const Workspace> workspace;
  std::shared_ptr<FileStore> files;  // edits go through it (disk or editor)
  ToolLimits limits;
  std::string sessionDataDir;  // per-session files (full shell output); created on demand
  // The global GEMINI.md save_memory adds to (absolute); empty: no save_memory.
  std::string globalMemoryFile;
  // Shows the person the session's plan (write_todos); any thread. Unset: not shown.
  std::function<void(const acp::PlanUpdate&)> showPlan;
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
