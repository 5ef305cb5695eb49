// Putting files back as they were before some prompts (and forward again for
// /redo): which files, what each should hold now and what it gets; a look at
// each as it is (through the session's file store, so open buffers count),
// naming those changed since by someone else; then the writes, each file
// checked again just before it is written, the bytes it held kept first.
#pragma once

#include <string>
#include <vector>

#include "engine/rewind/rewind_log.h"
#include "protocol/base/cancel.h"
#include "tools/core/file_store.h"
#include "tools/core/workspace.h"
#include "tools/snapshots/change_recorder.h"

namespace lathe::engine {

// One file to put back: blob ids, empty for "absent".
struct RestoreStep {
  std::string path;      // absolute
  std::string expected;  // what the file should hold now
  std::string target;    // what it gets (empty: it is removed)
};

// Undoing `prompts` (oldest first): each file they changed goes back to what
// it held before the first of them changed it, from what the last one left. Pure.
std::vector<RestoreStep> stepsToUndo(const std::vector<PromptRecord>& prompts);
// Redoing what a rewind wrote: each file forward to what it held before the rewind. Pure.
std::vector<RestoreStep> stepsToRedo(const std::vector<tools::FileChange>& rewound);

// A file as it is now against its step.
struct FileNow {
  RestoreStep step;
  std::string current;          // blob id of what it holds; empty when absent
  bool changedElsewhere = false;  // holds neither what the step expects nor its target
  bool done = false;            // already holds the target
  bool binary = false;          // read and written on disk, never through the editor
};

struct RestoreOutcome {
  std::vector<tools::FileChange> written;  // before: what was written; after: what the file held
  std::vector<std::string> leftAlone;      // changed elsewhere, not confirmed; or changed during the restore
  std::vector<std::string> failed;         // "path: why"
  bool cancelled = false;                  // stopped part way: the files not yet written are untouched
};

class FileRestore {
 public:
  FileRestore(tools::ChangeRecorder& blobs, tools::FileStore& files, const tools::Workspace& workspace)
      : blobs_(blobs), files_(files), workspace_(workspace) {}

  // Each file as it is now; a file that cannot be read fails the look.
  Result<std::vector<FileNow>> look(const std::vector<RestoreStep>& steps, const CancelToken& cancel);
  // Writes the targets; files changed elsewhere only with `overwrite`.
  RestoreOutcome apply(const std::vector<FileNow>& files, bool overwrite, const CancelToken& cancel);

 private:
  Result<std::string> currentBlob(const std::string& path, bool binary, const CancelToken& cancel);
  Status write(const FileNow& file, const CancelToken& cancel);

  tools::ChangeRecorder& blobs_;
  tools::FileStore& files_;
  const tools::Workspace& workspace_;
};

}  // namespace lathe::engine
