// Counting a file's hard links inside the workspace roots. Any thread.
#include "tools/core/hard_links.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <set>
#include <utility>
#include <vector>

namespace lathe::tools {
namespace {

struct LinkSearch {
  dev_t device;
  ino_t inode;
  size_t budget;
  size_t found = 0;
  bool exhausted = false;  // the budget or the depth ran out: not every link could be looked for
  std::set<std::pair<dev_t, ino_t>> seenDirs;  // roots may nest: each folder once
};

// Walks the folder open as `fd` (taking ownership), counting names of the
// file; stays on its filesystem and never follows symbolic links.
constexpr int kMaxDepth = 128;  // each level holds a descriptor open

void searchDir(int fd, LinkSearch& search, int depth) {
  if (depth > kMaxDepth) {
    ::close(fd);
    search.exhausted = true;
    return;
  }
  DIR* dir = ::fdopendir(fd);
  if (!dir) {
    ::close(fd);
    return;
  }
  std::vector<std::string> subdirs;
  while (struct dirent* entry = ::readdir(dir)) {
    std::string_view name = entry->d_name;
    if (name == "." || name == "..") continue;
    if (search.budget == 0) {
      search.exhausted = true;
      break;
    }
    --search.budget;
    if (entry->d_ino == search.inode && entry->d_type != DT_DIR) {
      struct stat st {};
      if (::fstatat(::dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == search.device &&
          st.st_ino == search.inode) {
        ++search.found;
      }
    }
    if (entry->d_type == DT_DIR || entry->d_type == DT_UNKNOWN) subdirs.emplace_back(name);
  }
  int parent = ::dirfd(dir);
  for (const auto& name : subdirs) {
    if (search.exhausted) break;
    int child = ::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (child < 0) continue;
    struct stat st {};
    if (::fstat(child, &st) != 0 || st.st_dev != search.device || !search.seenDirs.insert({st.st_dev, st.st_ino}).second) {
      ::close(child);
      continue;
    }
    searchDir(child, search, depth + 1);
  }
  ::closedir(dir);
}

}  // namespace

std::optional<std::string> outsideHardLinks(const Workspace& workspace, const std::string& path,
                                            const struct stat& st, size_t maxEntries) {
  if (!S_ISREG(st.st_mode) || st.st_nlink <= 1) return std::nullopt;
  LinkSearch search{st.st_dev, st.st_ino, maxEntries, 0, false, {}};
  for (const auto& root : workspace.roots()) {
    int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat rootStat {};
    if (::fstat(fd, &rootStat) != 0 || rootStat.st_dev != st.st_dev ||
        !search.seenDirs.insert({rootStat.st_dev, rootStat.st_ino}).second) {
      ::close(fd);
      continue;
    }
    searchDir(fd, search, 0);
    if (search.exhausted) break;
  }
  if (!search.exhausted && search.found >= st.st_nlink) return std::nullopt;
  std::string why = path + " has " + std::to_string(st.st_nlink) + " hard links, ";
  why += search.exhausted ? "and the workspace is too large to find them all"
                          : "and only " + std::to_string(search.found) + " of them are inside the workspace";
  return why + "; another may be a file outside it, so Lathe neither reads nor edits this file. "
               "Copy it (cp, not ln) if its content is needed.";
}

std::optional<std::string> outsideHardLinks(const Workspace& workspace, const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return outsideHardLinks(workspace, path, st);
}

}  // namespace lathe::tools
