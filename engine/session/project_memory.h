// A session's memory: the context files (GEMINI.md) it gives the model in the
// system prompt, the ones it adds just in time to a tool's result when the
// model first works in a folder that holds one, and what /memory shows and
// reloads. load() runs on the turn's thread; contextFor() on tool worker
// threads (parallel reads): every method takes the object's lock.
#pragma once

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "protocol/base/cancel.h"
#include "tools/core/workspace.h"
#include "tools/memory/context_files.h"

namespace lathe::engine {

class ProjectMemory {
 public:
  ProjectMemory(std::shared_ptr<const tools::Workspace> workspace, tools::ContextFileOptions options);

  struct Loaded {
    size_t files = 0;
    size_t bytes = 0;  // of the files' content, imports included
  };
  // (Re)discovers the context files; files added just in time before are
  // forgotten (a later tool call may add them again).
  Loaded load(const CancelToken& cancel);
  bool loaded() const;

  // The system prompt's part: every file, in order, each marked with its path;
  // empty when there is none.
  std::string promptSection() const;
  // What /memory show prints: the files loaded (just in time ones too), each
  // with its path and content.
  std::string describe() const;
  // The paths of the files loaded, in order (just in time ones last).
  std::vector<std::string> paths() const;

  // For a tool that touched these paths (canonical, absolute): the context
  // files along them not given to the model yet, as text to append to the
  // tool's result (empty when none). Each file is given once per session.
  std::string contextFor(const std::vector<std::string>& paths);

 private:
  std::shared_ptr<const tools::Workspace> workspace_;
  tools::ContextFileOptions options_;
  mutable std::mutex mutex_;
  bool loaded_ = false;
  std::vector<tools::ContextFile> files_;        // from load(), in order
  std::vector<tools::ContextFile> justInTime_;   // added later, in order
  std::set<std::string> known_;                  // canonical paths of both
};

}  // namespace lathe::engine
