// Captured runs: poll() over stdin, stdout, stderr and an eventfd poked by
// cancellation, until both outputs end, then the exit status. SIGPIPE is
// blocked on this thread while writing, so a child that does not read its
// input is an EPIPE here, never a signal for the process.
#include "tools/process/captured_run.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <memory>

#include "protocol/base/sigpipe_block.h"

namespace lathe::tools::process {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kKillGrace{1000};

// An eventfd a cancel callback may poke from any thread, even after the run ended.
struct Waker {
  int fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  ~Waker() {
    if (fd >= 0) ::close(fd);
  }
};

void nonBlocking(int fd) {
  if (fd >= 0) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// Reads what is there; false at end of output or on an error.
bool drain(int fd, std::string& into, size_t cap, bool& overflow) {
  char buffer[16 * 1024];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      into.append(buffer, static_cast<size_t>(n));
      if (into.size() > cap) {
        into.resize(cap);
        overflow = true;
        return false;
      }
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
    return false;
  }
}

}  // namespace

Result<CapturedRun> runCaptured(const CapturedRunSpec& spec, const CancelToken& cancel) {
  ProcessSpec processSpec;
  processSpec.argv = spec.argv;
  processSpec.cwd = spec.cwd;
  processSpec.env = spec.env;
  processSpec.stdinMode = StdinMode::pipe;
  processSpec.output = OutputMode::separate;
  processSpec.grouping = Grouping::newSession;
  auto spawned = ChildProcess::spawn(processSpec);
  if (!spawned) return spawned.error();
  std::unique_ptr<ChildProcess> child = std::move(spawned).value();
  auto waker = std::make_shared<Waker>();
  auto registration = cancel.onCancel([w = waker] {
    uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(w->fd, &one, sizeof one);
  });

  SigpipeBlock sigpipe;
  int in = child->stdinFd();
  int out = child->stdoutFd();
  int err = child->stderrFd();
  nonBlocking(in);
  nonBlocking(out);
  nonBlocking(err);
  if (spec.input.empty()) child->closeStdin(), in = -1;
  size_t written = 0;
  CapturedRun run;
  const auto deadline = Clock::now() + spec.timeout;
  bool outOpen = out >= 0;
  bool errOpen = err >= 0;
  while (outOpen || errOpen) {
    if (cancel.cancelled()) {
      run.cancelled = true;
      break;
    }
    auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      run.timedOut = true;
      break;
    }
    pollfd fds[4] = {{waker->fd, POLLIN, 0}, {outOpen ? out : -1, POLLIN, 0}, {errOpen ? err : -1, POLLIN, 0},
                     {in, POLLOUT, 0}};
    if (::poll(fds, 4, static_cast<int>(left.count()) + 1) < 0 && errno != EINTR) break;
    if (fds[3].revents & (POLLOUT | POLLERR | POLLHUP)) {
      ssize_t n = ::write(in, spec.input.data() + written, spec.input.size() - written);
      if (n > 0) written += static_cast<size_t>(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == spec.input.size()) {
        child->closeStdin();  // all written, or the child stopped reading
        in = -1;
      }
    }
    if (fds[1].revents) outOpen = drain(out, run.out, spec.maxOutputBytes, run.outputTooLarge);
    if (fds[2].revents) errOpen = drain(err, run.err, spec.maxOutputBytes, run.outputTooLarge);
    if (run.outputTooLarge) break;
  }
  if (run.cancelled || run.timedOut || run.outputTooLarge) {
    child->killTree(kKillGrace);
  } else {
    // Both outputs ended; the command may still run (it closed them): wait
    // in slices so cancel and the deadline still end it.
    while (!child->waitFor(milliseconds(50))) {
      run.cancelled = cancel.cancelled();
      run.timedOut = !run.cancelled && Clock::now() >= deadline;
      if (run.cancelled || run.timedOut) {
        child->killTree(kKillGrace);
        break;
      }
    }
  }
  run.exit = child->reaped() ? child->exit() : child->waitExit();
  return run;
}

}  // namespace lathe::tools::process
