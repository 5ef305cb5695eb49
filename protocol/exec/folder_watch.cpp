// inotify watches, renewed after each burst of changes.
#include "protocol/exec/folder_watch.h"

#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "protocol/base/thread_annotations.h"
#include "protocol/exec/callback_gate.h"
#include "protocol/exec/fd_watch.h"

namespace lathe::exec {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kChanges = IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO |
                              IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB;
constexpr size_t kMaxFolders = 1000;  // watches per tree, at most

bool isDir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

struct FolderWatch::State {
  Executor* executor = nullptr;
  std::vector<std::string> folders;
  std::function<void()> onChange;
  std::chrono::milliseconds quiet{100};
  int fd = -1;
  CallbackGate gate;  // onChange and the renewals
  Mutex mutex;
  FdWatch readable GUARDED_BY(mutex);
  Timer settle GUARDED_BY(mutex);
  bool renewing GUARDED_BY(mutex) = false;  // a renewal is posted or running
  bool again GUARDED_BY(mutex) = false;     // changes came during it

  ~State() {
    if (fd >= 0) ::close(fd);
  }

  // Watches every folder of each tree, or a missing one's nearest parent.
  void addWatches() {
    size_t count = 0;
    for (const auto& folder : folders) {
      std::string at = folder;
      while (!at.empty() && at != "/" && !isDir(at)) at = fs::path(at).parent_path().string();
      if (at != folder) {
        if (!at.empty()) ::inotify_add_watch(fd, at.c_str(), IN_CREATE | IN_MOVED_TO | IN_ONLYDIR | IN_MASK_ADD);
        continue;
      }
      ::inotify_add_watch(fd, folder.c_str(), kChanges | IN_ONLYDIR | IN_MASK_ADD);
      std::error_code ec;
      const auto options = fs::directory_options::follow_directory_symlink | fs::directory_options::skip_permission_denied;
      for (fs::recursive_directory_iterator it(folder, options, ec), end; !ec && it != end && count < kMaxFolders;
           it.increment(ec)) {
        if (it.depth() > 16) it.disable_recursion_pending();
        if (it->is_directory(ec)) {
          ::inotify_add_watch(fd, it->path().c_str(), kChanges | IN_ONLYDIR | IN_MASK_ADD);
          ++count;
        }
      }
    }
  }

  void arm(const std::shared_ptr<State>& self) {
    if (gate.closed()) return;
    MutexLock lock(mutex);
    std::weak_ptr<State> weak = self;
    readable = FdWatch::start(*executor, fd, FdWatch::Ready::read, [weak] {
      if (auto state = weak.lock()) state->onReadable(state);
    });
  }

  // On the reactor: drain the events, wait for the burst to end. A watch
  // that went with its folder (IN_IGNORED) changes nothing by itself.
  void onReadable(const std::shared_ptr<State>& self) {
    if (gate.closed()) return;
    alignas(inotify_event) char buffer[16 * 1024];
    bool changed = false;
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) {
      for (ssize_t at = 0; at + static_cast<ssize_t>(sizeof(inotify_event)) <= n;) {
        const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
        if ((event->mask & ~IN_IGNORED) != 0) changed = true;
        at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      }
    }
    arm(self);
    if (!changed) return;
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
          self->addWatches();  // new folders; the watches of gone ones went with them
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
  int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) return FolderWatch();
  auto state = std::make_shared<State>();
  state->executor = &executor;
  state->folders = std::move(folders);
  state->onChange = std::move(onChange);
  state->quiet = quiet;
  state->fd = fd;
  state->addWatches();
  state->arm(state);
  return FolderWatch(std::move(state));
}

void FolderWatch::stop() {
  if (!state_) return;
  state_->gate.close();
  FdWatch readable;
  Timer settle;
  {
    // Stopped outside the lock: a callback waiting for it must be able to finish.
    MutexLock lock(state_->mutex);
    readable = std::move(state_->readable);
    settle = std::move(state_->settle);
  }
  readable.stop();
  settle.cancel();
  state_.reset();
}

}  // namespace lathe::exec
