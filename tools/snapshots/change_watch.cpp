#include "tools/snapshots/change_watch.h"

#include <dirent.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace lathe::tools {
namespace {

constexpr uint32_t kEvents = IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO |
                             IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK;

std::string joined(const std::string& folder, const std::string& name) { return folder.empty() ? name : folder + "/" + name; }

}  // namespace

std::unique_ptr<ChangeWatch> ChangeWatch::start(std::string folder, LeftOut leftOut) {
  int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) return nullptr;
  std::unique_ptr<ChangeWatch> watch(new ChangeWatch(fd, std::move(folder), std::move(leftOut)));
  if (!watch->watchTree("")) watch->blind_ = true;
  return watch;
}

ChangeWatch::ChangeWatch(int fd, std::string folder, LeftOut leftOut)
    : fd_(fd), folder_(std::move(folder)), leftOut_(std::move(leftOut)) {}

ChangeWatch::~ChangeWatch() { ::close(fd_); }

bool ChangeWatch::watchTree(const std::string& relative) {
  const std::string path = relative.empty() ? folder_ : folder_ + "/" + relative;
  int wd = ::inotify_add_watch(fd_, path.c_str(), kEvents);
  if (wd < 0) return errno == ENOENT || errno == ENOTDIR;  // gone already: its parent's event names it
  folders_[wd] = relative;
  DIR* dir = ::opendir(path.c_str());
  if (!dir) return true;
  std::vector<std::string> below;
  while (dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name == "." || name == ".." || entry->d_type != DT_DIR) continue;
    const std::string child = joined(relative, name);
    if (!leftOut_(child, true)) below.push_back(child);
  }
  ::closedir(dir);
  bool all = true;
  for (const auto& child : below) all = watchTree(child) && all;
  return all;
}

ChangeWatch::Seen ChangeWatch::drain() {
  Seen seen;
  seen.everything = blind_;
  alignas(inotify_event) char buffer[64 * 1024];
  for (;;) {
    ssize_t n = ::read(fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (char* at = buffer; at < buffer + n;) {
      const auto* event = reinterpret_cast<const inotify_event*>(at);
      at += sizeof(inotify_event) + event->len;
      if (event->mask & IN_Q_OVERFLOW) {
        seen.everything = true;
        continue;
      }
      auto folder = folders_.find(event->wd);
      if (folder == folders_.end()) continue;
      if (event->mask & IN_IGNORED) {
        folders_.erase(folder);
        continue;
      }
      if (event->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
        if (folder->second.empty()) seen.everything = true;  // the top itself went
        continue;                                          // otherwise its parent names it
      }
      if (event->len == 0) continue;
      const std::string path = joined(folder->second, event->name);
      if ((event->mask & IN_ISDIR) && leftOut_(path, true)) continue;
      seen.paths.insert(path);
      if ((event->mask & IN_ISDIR) && (event->mask & (IN_CREATE | IN_MOVED_TO)) && !watchTree(path)) {
        blind_ = seen.everything = true;
      }
    }
  }
  return seen;
}

}  // namespace lathe::tools
