// Which paths under a folder changed since the last look: inotify, one watch
// per folder that is not left out (what git ignores, .git, Lathe's state). The
// kernel queues the events until drain() reads them (synchronously, on the
// caller's thread: no reactor, no debounce), so a look sees every change made
// before it; that is what lets a warm snapshot skip the walk of the whole tree.
// When the queue overflows or a folder cannot be watched, a look says so and
// the caller walks everything. Not thread-safe; one owner.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace lathe::tools {

class ChangeWatch {
 public:
  // `leftOut(relative, isFolder)`: a folder not to watch (nor what is under it).
  using LeftOut = std::function<bool(const std::string&, bool)>;
  // Null when inotify is not available.
  static std::unique_ptr<ChangeWatch> start(std::string folder, LeftOut leftOut);
  ~ChangeWatch();
  ChangeWatch(const ChangeWatch&) = delete;
  ChangeWatch& operator=(const ChangeWatch&) = delete;

  struct Seen {
    std::set<std::string> paths;  // relative to the folder: files, or folders made or moved in
    bool everything = false;      // some change may be missing from `paths`
  };
  Seen drain();

 private:
  ChangeWatch(int fd, std::string folder, LeftOut leftOut);
  // Watches `relative` and every folder under it; false when one could not be.
  bool watchTree(const std::string& relative);

  int fd_;
  std::string folder_;
  LeftOut leftOut_;
  std::map<int, std::string> folders_;  // watch descriptor -> relative folder ("" for the top)
  bool blind_ = false;                  // a folder could not be watched: every look says everything
};

}  // namespace lathe::tools
