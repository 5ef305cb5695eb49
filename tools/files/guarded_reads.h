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

// Why reading `path` (canonical, inside the workspace: links resolved) needs
// the person's word: inside .git, shaped like secrets, or ignored by git; ""
// when it does not.
std::string guardedReadReason(const Workspace& workspace, const std::string& path, bool isDir);

// The question to ask before reading the files `paths` (canonical, inside the
// workspace), or nullopt when none needs one.
std::optional<ReadConfirmation> guardedReads(const Workspace& workspace, const std::vector<std::string>& paths);

}  // namespace lathe::tools
