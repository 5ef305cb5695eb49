// Folders the read tools may read outside the workspace.
#include "tools/core/readable_folders.h"

namespace lathe::tools {

bool ReadableFolders::add(const std::string& folder) {
  auto root = Workspace::create(folder);
  if (!root) return false;
  std::lock_guard lock(mutex_);
  for (const auto& known : folders_) {
    if (known.cwd() == root->cwd()) return true;
  }
  folders_.push_back(std::move(root).value());
  return true;
}

std::optional<std::string> ReadableFolders::resolve(std::string_view path) const {
  if (path.empty() || path.front() != '/') return std::nullopt;
  std::lock_guard lock(mutex_);
  for (const auto& folder : folders_) {
    if (auto inside = folder.resolve(path)) return std::move(inside).value();
  }
  return std::nullopt;
}

std::vector<std::string> ReadableFolders::folders() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& folder : folders_) out.push_back(folder.cwd());
  return out;
}

}  // namespace lathe::tools
