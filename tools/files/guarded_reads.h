// Which files a read tool was asked for that the person must allow first:
// files git ignores (build outputs are fine to skip, but a named .env or key
// file is kept out of the repository for a reason) and files shaped like
// secrets, ignored or not. Reads the ignore files; any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tools/core/tool.h"
#include "tools/core/workspace.h"

namespace lathe::tools {

// The question to ask before reading `paths` (absolute, inside the
// workspace), or nullopt when none needs one.
std::optional<ReadConfirmation> guardedReads(const Workspace& workspace, const std::vector<std::string>& paths);

}  // namespace lathe::tools
