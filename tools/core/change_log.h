// What a session's tools change in the workspace, kept so a turn can be
// undone and so a shell command's changes can be shown as diffs. File tools
// say what they wrote; a command that may touch any file is bracketed by two
// marks of the whole workspace. Null in ToolContext: nothing is kept.
// Implementations are thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "tools/core/tool.h"

namespace lathe::tools {

// What a command changed, for the person to review.
struct CommandChanges {
  std::vector<FileDiff> diffs;     // each text file it changed: absolute path, old and new text
  std::vector<std::string> notes;  // what is not a diff: binary files, files too large to show
};

class ChangeLog {
 public:
  virtual ~ChangeLog() = default;
  // A file tool replaced or created `path` (absolute) through the file store:
  // its bytes before (nullopt: it did not exist) and after.
  virtual void wrote(const std::string& path, const std::optional<std::string>& before, const std::string& after) = 0;
  // The workspace as it is now, before a command that may change any of it.
  virtual Result<std::string> mark() = 0;
  // What changed since `mark`: kept with the turn's other changes, and returned.
  virtual Result<CommandChanges> changedSince(const std::string& mark) = 0;
};

}  // namespace lathe::tools
