// ExitWatch: an FdWatch on the pidfd, else a timer that looks again and again.
#include "tools/process/exit_watch.h"

#include <sys/wait.h>

#include "protocol/base/thread_annotations.h"

namespace lathe::tools::process {
namespace {

constexpr std::chrono::milliseconds kPollInterval{20};

// Exited (or gone: reaped by someone else), without reaping it.
bool hasExited(pid_t pid) {
  siginfo_t info{};
  int rc = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
  return rc != 0 || info.si_pid != 0;
}

}  // namespace

struct ExitWatch::Polling : std::enable_shared_from_this<ExitWatch::Polling> {
  Polling(exec::Executor& e, pid_t p, std::function<void()> fn) : executor(e), pid(p), onExit(std::move(fn)) {}

  void arm() REQUIRES(mutex) {
    timer = executor.after(kPollInterval, [self = shared_from_this()] { self->look(); });
  }

  // Reactor, from the timer.
  void look() EXCLUDES(mutex) {
    MutexLock lock(mutex);
    if (stopped) return;
    if (!hasExited(pid)) return arm();
    stopped = true;
    onExit();
  }

  void stop() EXCLUDES(mutex) {
    exec::Timer last;
    {
      MutexLock lock(mutex);
      stopped = true;
      last = std::move(timer);
    }
    last.cancel();  // outside the lock: a look() running waits for it
  }

  exec::Executor& executor;
  const pid_t pid;
  std::function<void()> onExit;
  Mutex mutex;
  exec::Timer timer GUARDED_BY(mutex);
  bool stopped GUARDED_BY(mutex) = false;
};

ExitWatch& ExitWatch::operator=(ExitWatch&& other) noexcept {
  if (this != &other) {
    stop();
    pidFd_ = std::move(other.pidFd_);
    polling_ = std::move(other.polling_);
  }
  return *this;
}

ExitWatch::~ExitWatch() { stop(); }

ExitWatch ExitWatch::start(exec::Executor& executor, const ChildProcess& child, std::function<void()> onExit) {
  ExitWatch watch;
  if (child.pidFd() >= 0) {
    watch.pidFd_ = exec::FdWatch::start(executor, child.pidFd(), exec::FdWatch::Ready::read, onExit);
    if (watch.pidFd_.watching()) return watch;
  }
  watch.polling_ = std::make_shared<Polling>(executor, child.pid(), std::move(onExit));
  {
    MutexLock lock(watch.polling_->mutex);
    watch.polling_->arm();
  }
  return watch;
}

void ExitWatch::stop() {
  pidFd_.stop();
  if (polling_) polling_->stop();
  polling_.reset();
}

}  // namespace lathe::tools::process
