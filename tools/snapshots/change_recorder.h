// The session's ChangeLog: keeps, per file, its bytes before the first change
// and after the last since the changes were last taken (the engine takes them
// at the end of each prompt), as blobs in a shadow repository per workspace
// folder (ShadowRepo, under `snapshotsDir`), opened at first use. Files
// outside the workspace (a plans folder elsewhere) are not kept. Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "protocol/base/thread_annotations.h"
#include "protocol/exec/task_group.h"
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

  // Takes the first snapshot of each folder in the background (it copies the
  // whole folder), so the first command does not wait for it; once.
  void prepare();

  // The changes kept since the last take, in path order; starts afresh.
  std::vector<FileChange> take();

  // The bytes of a kept blob of `path`'s folder, and keeping bytes there.
  Result<std::string> read(const std::string& path, const std::string& blob);
  Result<std::string> keep(const std::string& path, std::string_view bytes);
  bool binary(const std::string& path, const std::string& blob);  // false for "" and unknown blobs

 private:
  // One workspace folder's shadow repository, through two handles: blobs
  // (under foldersMutex_) never wait for a snapshot walking the folder.
  struct Folder {
    std::string root;
    std::unique_ptr<ShadowRepo> blobs;
    Mutex snapshotting;
    std::unique_ptr<ShadowRepo> snapshots GUARDED_BY(snapshotting);
  };
  Result<Folder*> folderFor(const std::string& root) EXCLUDES(foldersMutex_);
  Result<Folder*> folderLocked(const std::string& root) REQUIRES(foldersMutex_);
  Result<ShadowRepo*> blobsFor(const std::string& path) REQUIRES(foldersMutex_);
  Result<std::string> snapshot(Folder& folder, const CancelToken& cancel) REQUIRES(folder.snapshotting);
  void note(const ShadowRepo::Change& change) REQUIRES(mutex_);
  void show(ShadowRepo& repo, const ShadowRepo::Change& change, CommandChanges& out);

  std::shared_ptr<const Workspace> workspace_;
  std::string snapshotsDir_;
  int64_t maxFileBytes_;
  // Opening a repository takes a while: the changes (take() at each turn's end) never wait for it.
  Mutex foldersMutex_;
  std::map<std::string, std::unique_ptr<Folder>> folders_ GUARDED_BY(foldersMutex_);  // by root
  Mutex mutex_;
  std::map<std::string, FileChange> changes_ GUARDED_BY(mutex_);  // by path
  bool prepared_ GUARDED_BY(mutex_) = false;
  exec::TaskGroup warming_;  // last: joined (its walk cancelled) before the rest goes
};

}  // namespace lathe::tools
