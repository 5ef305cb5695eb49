#include "tools/snapshots/change_recorder.h"

#include <sstream>
#include <utility>

namespace lathe::tools {

namespace {

// Past this a changed file is named rather than shown as a diff.
constexpr int64_t kShownBytes = 1024 * 1024;

// The folder of `path` among the roots: the longest that holds it.
const std::string* folderOf(const Workspace& workspace, const std::string& path) {
  const std::string* best = nullptr;
  for (const auto& root : workspace.roots()) {
    const bool inside = path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/';
    if (inside && (!best || root.size() > best->size())) best = &root;
  }
  return best;
}

}  // namespace

ChangeRecorder::ChangeRecorder(std::shared_ptr<const Workspace> workspace, std::string snapshotsDir, int64_t maxFileBytes)
    : workspace_(std::move(workspace)), snapshotsDir_(std::move(snapshotsDir)), maxFileBytes_(maxFileBytes) {}

Result<ChangeRecorder::Folder*> ChangeRecorder::folderLocked(const std::string& root) {
  auto found = folders_.find(root);
  if (found != folders_.end()) return found->second.get();
  auto blobs = ShadowRepo::open(shadowRepoDir(snapshotsDir_, root), root, maxFileBytes_, false);
  if (!blobs) return blobs.error();
  auto folder = std::make_unique<Folder>();
  folder->root = root;
  folder->blobs = std::move(blobs).value();
  return folders_.emplace(root, std::move(folder)).first->second.get();
}

Result<ChangeRecorder::Folder*> ChangeRecorder::folderFor(const std::string& root) {
  MutexLock lock(foldersMutex_);
  return folderLocked(root);
}

Result<ShadowRepo*> ChangeRecorder::blobsFor(const std::string& path) {
  const std::string* root = folderOf(*workspace_, path);
  if (!root) return makeError(Errc::forbidden, path + " is outside the workspace");
  auto folder = folderLocked(*root);
  if (!folder) return folder.error();
  return (*folder)->blobs.get();
}

Result<std::string> ChangeRecorder::snapshot(Folder& folder, const CancelToken& cancel) {
  if (!folder.snapshots) {
    auto opened = ShadowRepo::open(shadowRepoDir(snapshotsDir_, folder.root), folder.root, maxFileBytes_);
    if (!opened) return opened.error();
    folder.snapshots = std::move(opened).value();
  }
  return folder.snapshots->snapshot(cancel);
}

void ChangeRecorder::prepare() {
  {
    MutexLock lock(mutex_);
    if (std::exchange(prepared_, true)) return;
  }
  (void)warming_.post([this](const CancelToken& cancel) {
    for (const auto& root : workspace_->roots()) {
      auto folder = folderFor(root);
      if (!folder) continue;  // the first command says why
      MutexLock lock((*folder)->snapshotting);
      (void)snapshot(**folder, cancel);
    }
  });
}

void ChangeRecorder::note(const ShadowRepo::Change& change) {
  auto [at, fresh] = changes_.try_emplace(change.path, FileChange{change.path, change.before, change.after});
  if (!fresh) at->second.after = change.after;
  if (at->second.before == at->second.after) changes_.erase(at);  // back as it was
}

void ChangeRecorder::wrote(const std::string& path, const std::optional<std::string>& before, const std::string& after) {
  if (!folderOf(*workspace_, path)) return;
  ShadowRepo::Change change{path, "", ""};
  {
    MutexLock lock(foldersMutex_);
    auto repo = blobsFor(path);
    if (!repo) return;
    if (before) {
      auto kept = (*repo)->put(*before);
      if (!kept) return;
      change.before = *kept;
    }
    auto kept = (*repo)->put(after);
    if (!kept) return;
    change.after = *kept;
  }
  MutexLock lock(mutex_);
  note(change);
}

Result<std::string> ChangeRecorder::mark() {
  std::string out;
  for (const auto& root : workspace_->roots()) {
    auto folder = folderFor(root);
    if (!folder) return folder.error();
    MutexLock lock((*folder)->snapshotting);
    auto tree = snapshot(**folder, CancelToken{});
    if (!tree) return tree.error();
    out += (out.empty() ? "" : " ") + *tree;
  }
  return out;
}

Result<CommandChanges> ChangeRecorder::changedSince(const std::string& mark) {
  std::istringstream before(mark);
  CommandChanges out;
  for (const auto& root : workspace_->roots()) {
    std::string from;
    if (!(before >> from)) return makeError(Errc::invalid_params, "the mark does not cover every workspace folder");
    auto folder = folderFor(root);
    if (!folder) return folder.error();
    MutexLock lock((*folder)->snapshotting);
    auto to = snapshot(**folder, CancelToken{});
    if (!to) return to.error();
    auto changes = (*folder)->snapshots->changes(from, *to);
    if (!changes) return changes.error();
    for (const auto& change : *changes) show(*(*folder)->snapshots, change, out);
    MutexLock noting(mutex_);
    for (const auto& change : *changes) note(change);
  }
  return out;
}

void ChangeRecorder::show(ShadowRepo& repo, const ShadowRepo::Change& change, CommandChanges& out) {
  const std::string shown = workspace_->relative(change.path);
  const bool binary = (!change.before.empty() && repo.binary(change.before)) || (!change.after.empty() && repo.binary(change.after));
  const int64_t size = std::max(change.before.empty() ? 0 : repo.size(change.before), change.after.empty() ? 0 : repo.size(change.after));
  if (binary || size > kShownBytes) {
    const char* what = change.before.empty() ? "created" : change.after.empty() ? "deleted" : "changed";
    out.notes.push_back(shown + " was " + what + (binary ? " (a binary file)" : " (too large to show as a diff)"));
    return;
  }
  FileDiff diff{change.path, std::nullopt, ""};
  if (!change.before.empty()) {
    auto text = repo.read(change.before);
    if (!text) return;
    diff.oldText = std::move(text).value();
  }
  if (!change.after.empty()) {
    auto text = repo.read(change.after);
    if (!text) return;
    diff.newText = std::move(text).value();
  } else {
    out.notes.push_back(shown + " was deleted");
  }
  out.diffs.push_back(std::move(diff));
}

std::vector<FileChange> ChangeRecorder::take() {
  MutexLock lock(mutex_);
  std::vector<FileChange> out;
  for (auto& [path, change] : changes_) out.push_back(std::move(change));
  changes_.clear();
  return out;
}

Result<std::string> ChangeRecorder::read(const std::string& path, const std::string& blob) {
  MutexLock lock(foldersMutex_);
  auto repo = blobsFor(path);
  if (!repo) return repo.error();
  return (*repo)->read(blob);
}

Result<std::string> ChangeRecorder::keep(const std::string& path, std::string_view bytes) {
  MutexLock lock(foldersMutex_);
  auto repo = blobsFor(path);
  if (!repo) return repo.error();
  return (*repo)->put(bytes);
}

bool ChangeRecorder::binary(const std::string& path, const std::string& blob) {
  if (blob.empty()) return false;
  MutexLock lock(foldersMutex_);
  auto repo = blobsFor(path);
  return repo && (*repo)->binary(blob);
}

}  // namespace lathe::tools
