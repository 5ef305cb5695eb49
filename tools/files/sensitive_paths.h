// Files whose content changes how programs run: git's repository and hooks,
// git and tool configuration, Gemini CLI's own settings. An edit to one is
// always asked about. Pure; any thread.
#pragma once

#include <string>

#include "tools/core/workspace.h"

namespace lathe::tools {

// Why editing `path` (absolute, inside the workspace) changes how tools run,
// or "" when it does not.
std::string sensitiveEditReason(const Workspace& workspace, const std::string& path);

}  // namespace lathe::tools
