// What built-in tools share within one session: the workspace and limits.
// Immutable after the session starts; any thread.
#pragma once

#include <cstdint>
#include <memory>

#include "tools/workspace.h"

namespace lathe::tools {

struct ToolLimits {
  int64_t readDefaultLines = 2000;
  int64_t maxLineChars = 2000;
  int64_t maxFileBytes = 20 * 1024 * 1024;
};

struct ToolContext {
  std::shared_ptr<const Workspace> workspace;
  ToolLimits limits;
};

}  // namespace lathe::tools

#include <optional>
#include <string>
#include <string_view>

#include "tools/tool.h"

namespace lathe::tools {

// A model-supplied path resolved inside the workspace, or the tool error for it.
struct ResolvedPath {
  std::string path;
  std::optional<ToolError> error;
};
ResolvedPath resolveToolPath(const Workspace& workspace, std::string_view path);

}  // namespace lathe::tools
