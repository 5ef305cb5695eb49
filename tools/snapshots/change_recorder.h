// The session's ChangeLog: keeps, per file, its bytes before the first change
// and after the last since the changes were last taken (the engine takes them
// at the end of each prompt), as blobs in a shadow repository per workspace
// folder (ShadowRepo, under `snapshotsDir`). Files outside the workspace
// (a plans folder elsewhere) are not kept. Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "protocol/base/thread_annotations.h"
#include "tools/core/change_log.h"
#include "tools/core/workspace.h"
#include "tools/snapshots/shadow_repo.h"

namespace lathe::tools {

// One file's change: blob ids, empty where the file did not exist.
struct FileChange {
  std::string path;  // absolute
  std::string before;
  std::string after;
  bool operator==(const FileChange&) const = default;
};

class ChangeRecorder final : public ChangeLog {
 public:
  ChangeRecorder(std::shared_ptr<const Workspace> workspace, std::string snapshotsDir, int64_t maxFileBytes);

  void wrote(const std::string& path, const std::optional<std::string>& before, const std::string& after) override;
  Result<std::string> mark() override;
  Result<CommandChanges> changedSince(const std::string& mark) override;

  // The changes kept since the last take, in path order; starts afresh.
  std::vector<FileChange> take();

  // The bytes of a kept blob of `path`'s folder, and keeping bytes there.
  Result<std::string> read(const std::string& path, const std::string& blob);
  Result<std::string> keep(const std::string& path, std::string_view bytes);
  bool binary(const std::string& path, const std::string& blob);  // false for "" and unknown blobs

 private:
  Result<ShadowRepo*> repoFor(const std::string& path) REQUIRES(mutex_);
  void note(const ShadowRepo::Change& change) REQUIRES(mutex_);
  void show(ShadowRepo& repo, const ShadowRepo::Change& change, CommandChanges& out) REQUIRES(mutex_);

  std::shared_ptr<const Workspace> workspace_;
  std::string snapshotsDir_;
  int64_t maxFileBytes_;
  Mutex mutex_;
  std::map<std::string, std::unique_ptr<ShadowRepo>> repos_ GUARDED_BY(mutex_);  // by folder
  std::map<std::string, FileChange> changes_ GUARDED_BY(mutex_);                  // by path
};

}  // namespace lathe::tools
