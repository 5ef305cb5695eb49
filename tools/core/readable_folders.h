// Folders outside the workspace whose files the read tools may read: the
// folder of a skill the model activated, so it can read the resources the
// skill's instructions name. Only reading: no tool writes there, and only
// what lies inside such a folder (links resolved) is reachable. Folders are
// added as the session goes; thread-safe.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/core/workspace.h"

namespace lathe::tools {

class ReadableFolders {
 public:
  // `folder`: an existing absolute folder; false when it is not one.
  bool add(const std::string& folder);
  // The canonical path of `path` (absolute) when it lies inside one of them.
  std::optional<std::string> resolve(std::string_view path) const;
  std::vector<std::string> folders() const;

 private:
  mutable std::mutex mutex_;
  std::vector<Workspace> folders_;  // each confines like a workspace of one root
};

}  // namespace lathe::tools
