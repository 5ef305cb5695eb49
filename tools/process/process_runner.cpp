// Waiting for a command while reading its merged output: poll() on the
// output pipe, the child's pidfd and an eventfd poked by cancellation. Runs on
// the thread that owns the ProcessRunner; cancel callbacks only poke the eventfd.
#include "tools/process/process_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "tools/process/process_tree.h"

namespace lathe::tools::process {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr size_t kReadChunk = 64 * 1024;
constexpr size_t kReadPerWakeup = 1024 * 1024;  // then look at cancel and timers again

// An eventfd that a cancel callback may poke from any thread, even after the
// waiter stopped listening: the callback keeps it alive.
struct Waker {
  int fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  ~Waker() {
    if (fd >= 0) ::close(fd);
  }
  void wake() const {
    uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(fd, &one, sizeof one);
  }
};

struct CancelWatch {
  std::shared_ptr<Waker> waker = std::make_shared<Waker>();
  CancelToken::Registration registration;
  explicit CancelWatch(const CancelToken& cancel) : registration(cancel.onCancel([w = waker] { w->wake(); })) {}
};

// The poll() timeout until the next deadline among those that apply.
milliseconds nextTimeout(const WaitOptions& options, Clock::time_point lastOutput, Clock::time_point lastTick,
                         bool havePidFd) {
  milliseconds timeout(-1);
  auto shorten = [&](milliseconds t) {
    t = std::max(t, milliseconds(0));
    timeout = timeout.count() < 0 ? t : std::min(timeout, t);
  };
  auto now = Clock::now();
  if (options.inactivity.count() > 0) {
    shorten(std::chrono::duration_cast<milliseconds>(lastOutput + options.inactivity - now) + milliseconds(1));
  }
  if (options.tickInterval.count() > 0 && options.onTick) {
    shorten(std::chrono::duration_cast<milliseconds>(lastTick + options.tickInterval - now));
  }
  if (!havePidFd) shorten(milliseconds(20));  // no pidfd: look at the child with waitpid
  return timeout;
}

}  // namespace

std::vector<std::string> bashArgv(const std::string& command) { return {"bash", "-c", command}; }

Result<std::unique_ptr<ProcessRunner>> ProcessRunner::spawn(const RunSpec& spec) {
  ProcessSpec child;
  child.argv = spec.argv;
  child.cwd = spec.cwd;
  child.env = spec.env;
  child.stdinMode = StdinMode::null;
  child.output = OutputMode::merged;
  child.grouping = Grouping::newSession;
  auto spawned = ChildProcess::spawn(child);
  if (!spawned) return spawned.error();
  int out = (*spawned)->stdoutFd();
  ::fcntl(out, F_SETFL, ::fcntl(out, F_GETFL) | O_NONBLOCK);
  return std::unique_ptr<ProcessRunner>(new ProcessRunner(std::move(spawned).value()));
}

void ProcessRunner::noteExit() {
  const ExitStatus& status = child_->exit();
  exit_.exitCode = status.exitCode;
  exit_.signal = status.signal;
}

void ProcessRunner::killTree(milliseconds grace) {
  child_->killTree(grace);
  if (child_->reaped()) noteExit();
}

void ProcessRunner::readAvailable(const ChunkSink& sink, size_t limit) {
  char buf[kReadChunk];
  size_t total = 0;
  while (child_->stdoutFd() >= 0 && total < limit) {
    ssize_t n = ::read(child_->stdoutFd(), buf, sizeof buf);
    if (n > 0) {
      total += static_cast<size_t>(n);
      if (sink) sink(std::string_view(buf, static_cast<size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    child_->closeStdout();  // end of file, or an error that ends reading all the same
  }
}

RunExit ProcessRunner::waitForExit(const CancelToken& cancel, const WaitOptions& options, const ChunkSink& sink) {
  if (child_->reaped()) return exit_;
  CancelWatch watch(cancel);
  auto lastOutput = Clock::now();
  auto lastTick = lastOutput;
  size_t seen = 0;
  ChunkSink counting = [&](std::string_view chunk) {
    seen += chunk.size();
    if (sink) sink(chunk);
  };

  while (true) {
    if (cancel.cancelled()) {
      killTree(options.killGrace);
      exit_.cancelled = true;
      break;
    }
    milliseconds timeout = nextTimeout(options, lastOutput, lastTick, child_->pidFd() >= 0);
    pollfd fds[3];
    nfds_t count = 0;
    fds[count++] = pollfd{watch.waker->fd, POLLIN, 0};
    int outIndex = -1, pidIndex = -1;
    if (child_->stdoutFd() >= 0) {
      outIndex = static_cast<int>(count);
      fds[count++] = pollfd{child_->stdoutFd(), POLLIN, 0};
    }
    if (child_->pidFd() >= 0) {
      pidIndex = static_cast<int>(count);
      fds[count++] = pollfd{child_->pidFd(), POLLIN, 0};
    }
    int ready = ::poll(fds, count, static_cast<int>(timeout.count()));
    if (ready < 0 && errno != EINTR) {
      killTree(options.killGrace);
      break;
    }
    if (outIndex >= 0 && fds[outIndex].revents != 0) {
      size_t before = seen;
      readAvailable(counting, kReadPerWakeup);
      if (seen != before) lastOutput = Clock::now();
    }
    bool done = pidIndex >= 0 ? fds[pidIndex].revents != 0 : child_->tryReap();
    if (done) {
      child_->waitExit();
      noteExit();
      readAvailable(counting, 16 * kReadPerWakeup);  // what it wrote before exiting
      break;
    }
    auto now = Clock::now();
    if (options.inactivity.count() > 0 && now - lastOutput >= options.inactivity) {
      killTree(options.killGrace);
      exit_.timedOut = true;
      break;
    }
    if (options.tickInterval.count() > 0 && options.onTick && now - lastTick >= options.tickInterval) {
      lastTick = now;
      options.onTick();
    }
  }
  return exit_;
}

void ProcessRunner::waitForTree(const CancelToken& cancel, const ChunkSink& sink, milliseconds killGrace) {
  CancelWatch watch(cancel);
  while (true) {
    if (cancel.cancelled()) {
      killTree(killGrace);
      return;
    }
    pollfd fds[2];
    nfds_t count = 0;
    fds[count++] = pollfd{watch.waker->fd, POLLIN, 0};
    if (child_->stdoutFd() >= 0) fds[count++] = pollfd{child_->stdoutFd(), POLLIN, 0};
    int ready = ::poll(fds, count, 500);
    if (ready < 0 && errno != EINTR) return;
    if (count > 1 && fds[1].revents != 0) readAvailable(sink, kReadPerWakeup);
    if (ready == 0 || child_->stdoutFd() < 0) {
      if (child_->tryReap()) noteExit();
      if (processTree(child_->pid()).empty()) {  // zombies no one reaps do not count
        readAvailable(sink, kReadPerWakeup);
        return;
      }
    }
  }
}

}  // namespace lathe::tools::process
