// FolderWatch: the process's one inotify descriptor per executor, shared by
// every watch (a person's limit on inotify instances is small, 128 by
// default, and editors use many), its watches counted per folder.
#include "protocol/exec/folder_watch.h"

#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <map>
#include <set>

#include "protocol/base/thread_annotations.h"
#include "protocol/exec/callback_gate.h"
#include "protocol/exec/fd_watch.h"

namespace lathe::exec {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kChanges = IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO |
                              IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB;
constexpr uint32_t kAppears = IN_CREATE | IN_MOVED_TO;
constexpr size_t kMaxFolders = 1000;  // watches per tree, at most

bool isDir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

// One inotify descriptor and who watches what through it.
class InotifyHub {
 public:
  static std::shared_ptr<InotifyHub> of(Executor& executor);
  ~InotifyHub() {
    readable_.stop();
    if (fd_ >= 0) ::close(fd_);
  }

  // Adds a watch for `state` (the same folder from two states is one watch).
  void add(const std::shared_ptr<FolderWatch::State>& state, const std::string& folder, uint32_t mask) EXCLUDES(mutex_);
  // Forgets `state`'s watches; a folder nobody watches any more is let go.
  void remove(const FolderWatch::State* state) EXCLUDES(mutex_);

 private:
  bool start(Executor& executor);
  void arm(const std::shared_ptr<InotifyHub>& self) EXCLUDES(mutex_);
  void onReadable(const std::shared_ptr<InotifyHub>& self) EXCLUDES(mutex_);

  Executor* executor_ = nullptr;
  int fd_ = -1;
  Mutex mutex_;
  FdWatch readable_ GUARDED_BY(mutex_);
  std::map<int, std::map<const FolderWatch::State*, std::weak_ptr<FolderWatch::State>>> watchers_ GUARDED_BY(mutex_);
};

struct FolderWatch::State {
  Executor* executor = nullptr;
  std::shared_ptr<InotifyHub> hub;
  std::vector<std::string> folders;
  std::function<void()> onChange;
  std::chrono::milliseconds quiet{100};
  CallbackGate gate;  // the renewals and onChange
  Mutex mutex;
  Timer settle GUARDED_BY(mutex);
  bool renewing GUARDED_BY(mutex) = false;  // a renewal is posted or running
  bool again GUARDED_BY(mutex) = false;     // changes came during it

  // Every folder of each tree, or a missing one's nearest existing parent.
  void addWatches(const std::shared_ptr<State>& self) {
    size_t count = 0;
    for (const auto& folder : folders) {
      std::string at = folder;
      while (!at.empty() && at != "/" && !isDir(at)) at = fs::path(at).parent_path().string();
      if (at != folder) {
        if (!at.empty()) hub->add(self, at, kAppears);
        continue;
      }
      hub->add(self, folder, kChanges);
      std::error_code ec;
      const auto options = fs::directory_options::follow_directory_symlink | fs::directory_options::skip_permission_denied;
      for (fs::recursive_directory_iterator it(folder, options, ec), end; !ec && it != end && count < kMaxFolders;
           it.increment(ec)) {
        if (it.depth() > 16) it.disable_recursion_pending();
        if (it->is_directory(ec)) {
          hub->add(self, it->path().string(), kChanges);
          ++count;
        }
      }
    }
  }

  // On the reactor: something changed; the call waits for the burst to end.
  void changed(const std::shared_ptr<State>& self) {
    if (gate.closed()) return;
    MutexLock lock(mutex);
    std::weak_ptr<State> weak = self;
    settle = executor->after(quiet, [weak] {
      if (auto state = weak.lock()) state->renew(state);
    });
  }

  // Watches renewed and the owner told, on a worker (the tree walk may take
  // a while); changes during a call make one more call after it.
  void renew(const std::shared_ptr<State>& self) {
    {
      MutexLock lock(mutex);
      if (renewing) {
        again = true;
        return;
      }
      renewing = true;
    }
    executor->post([self] {
      for (;;) {
        {
          MutexLock lock(self->mutex);
          self->again = false;
        }
        self->gate.run([&] {
          self->addWatches(self);  // new folders; the watches of gone ones went with them
          self->onChange();
        });
        MutexLock lock(self->mutex);
        if (!self->again || self->gate.closed()) {
          self->renewing = false;
          return;
        }
      }
    });
  }
};

std::shared_ptr<InotifyHub> InotifyHub::of(Executor& executor) {
  static std::mutex mutex;
  static std::map<Executor*, std::weak_ptr<InotifyHub>> hubs;
  std::lock_guard lock(mutex);
  if (auto hub = hubs[&executor].lock()) return hub;
  auto hub = std::make_shared<InotifyHub>();
  if (!hub->start(executor)) return nullptr;
  hub->arm(hub);
  hubs[&executor] = hub;
  return hub;
}

bool InotifyHub::start(Executor& executor) {
  executor_ = &executor;
  fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  return fd_ >= 0;
}

void InotifyHub::add(const std::shared_ptr<FolderWatch::State>& state, const std::string& folder, uint32_t mask) {
  int wd = ::inotify_add_watch(fd_, folder.c_str(), mask | IN_ONLYDIR | IN_MASK_ADD);
  if (wd < 0) return;
  MutexLock lock(mutex_);
  watchers_[wd][state.get()] = state;
}

void InotifyHub::remove(const FolderWatch::State* state) {
  MutexLock lock(mutex_);
  for (auto it = watchers_.begin(); it != watchers_.end();) {
    it->second.erase(state);
    if (!it->second.empty()) {
      ++it;
      continue;
    }
    ::inotify_rm_watch(fd_, it->first);
    it = watchers_.erase(it);
  }
}

void InotifyHub::arm(const std::shared_ptr<InotifyHub>& self) {
  std::weak_ptr<InotifyHub> weak = self;
  MutexLock lock(mutex_);
  readable_ = FdWatch::start(*executor_, fd_, FdWatch::Ready::read, [weak] {
    if (auto hub = weak.lock()) hub->onReadable(hub);
  });
}

// On the reactor: the events drained, each watcher of a changed folder told
// once. A watch that went with its folder (IN_IGNORED) changes nothing by itself.
void InotifyHub::onReadable(const std::shared_ptr<InotifyHub>& self) {
  alignas(inotify_event) char buffer[16 * 1024];
  std::vector<std::shared_ptr<FolderWatch::State>> told;
  {
    MutexLock lock(mutex_);
    for (ssize_t n; (n = ::read(fd_, buffer, sizeof buffer)) > 0;) {
      for (ssize_t at = 0; at + static_cast<ssize_t>(sizeof(inotify_event)) <= n;) {
        const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
        at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
        auto watchers = watchers_.find(event->wd);
        if (watchers == watchers_.end()) continue;
        if (event->mask & IN_IGNORED) {
          watchers_.erase(watchers);
          continue;
        }
        for (const auto& [key, weak] : watchers->second) {
          auto state = weak.lock();
          if (state && std::find(told.begin(), told.end(), state) == told.end()) told.push_back(std::move(state));
        }
      }
    }
  }
  arm(self);
  for (const auto& state : told) state->changed(state);
}

FolderWatch::FolderWatch() = default;
FolderWatch::FolderWatch(std::shared_ptr<State> state) : state_(std::move(state)) {}
FolderWatch::FolderWatch(FolderWatch&&) noexcept = default;
FolderWatch& FolderWatch::operator=(FolderWatch&& other) noexcept {
  if (this != &other) {
    stop();
    state_ = std::move(other.state_);
  }
  return *this;
}
FolderWatch::~FolderWatch() { stop(); }

FolderWatch FolderWatch::start(Executor& executor, std::vector<std::string> folders, std::function<void()> onChange,
                               std::chrono::milliseconds quiet) {
  auto hub = InotifyHub::of(executor);
  if (!hub) return FolderWatch();
  auto state = std::make_shared<State>();
  state->executor = &executor;
  state->hub = std::move(hub);
  state->folders = std::move(folders);
  state->onChange = std::move(onChange);
  state->quiet = quiet;
  state->addWatches(state);
  return FolderWatch(std::move(state));
}

void FolderWatch::stop() {
  if (!state_) return;
  state_->gate.close();
  Timer settle;
  {
    // Cancelled outside the lock: a callback waiting for it must be able to finish.
    MutexLock lock(state_->mutex);
    settle = std::move(state_->settle);
  }
  settle.cancel();
  state_->hub->remove(state_.get());
  state_.reset();
}

}  // namespace lathe::exec
