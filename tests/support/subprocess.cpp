// Child processes over pipes (posix_spawn, own process group). The reader
// thread owns the stdout/stderr descriptors; everything else is guarded by
// the mutexes declared in the header.
#include "tests/support/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>

extern char** environ;

namespace lathe::testing {
namespace {

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

Result<std::unique_ptr<Subprocess>> Subprocess::spawn(const SubprocessOptions& options) {
  signal(SIGPIPE, SIG_IGN);  // a child that exits must not kill us through a write
  tools::process::ProcessSpec spec;
  spec.argv = options.argv;
  spec.cwd = options.cwd;
  spec.env.set = options.env;
  spec.env.unset = options.unsetEnv;
  spec.stdinMode = tools::process::StdinMode::pipe;
  spec.output = tools::process::OutputMode::separate;
  spec.grouping = tools::process::Grouping::newGroup;
  int wake[2];
  if (pipe2(wake, O_CLOEXEC) != 0) return makeError(Errc::io, std::string("pipe: ") + std::strerror(errno));
  auto child = tools::process::ChildProcess::spawn(spec);
  if (!child) {
    ::close(wake[0]);
    ::close(wake[1]);
    return child.error();
  }
  std::unique_ptr<Subprocess> process(new Subprocess());
  process->child_ = std::move(child).value();
  process->pid_ = process->child_->pid();
  process->stdinFd_ = process->child_->takeStdin();
  process->stdoutFd_ = process->child_->takeStdout();
  process->stderrFd_ = process->child_->takeStderr();
  process->wakeRead_ = wake[0];
  process->wakeWrite_ = wake[1];
  process->reader_ = std::thread([p = process.get()] { p->readerLoop(); });
  return process;
}

Result<std::unique_ptr<Subprocess>> Subprocess::spawn(std::vector<std::string> argv) {
  SubprocessOptions options;
  options.argv = std::move(argv);
  return spawn(options);
}

Subprocess::~Subprocess() {
  kill(SIGKILL);
  closeStdin();
  for (int tries = 0; tries < 10 && !wait(std::chrono::milliseconds(1000)); ++tries) kill(SIGKILL);
  if (wakeWrite_ >= 0) {
    char c = 'x';
    [[maybe_unused]] auto n = ::write(wakeWrite_, &c, 1);
  }
  if (reader_.joinable()) reader_.join();
  closeFd(stdoutFd_);
  closeFd(stderrFd_);
  closeFd(wakeRead_);
  closeFd(wakeWrite_);
  // Whatever is left of the group (descendants that outlived the child).
  if (pid_ > 0) ::kill(-pid_, SIGKILL);
  std::lock_guard lock(waitMutex_);
  child_.reset();
}

void Subprocess::readerLoop() {
  char buffer[65536];
  for (;;) {
    pollfd fds[3] = {{stdoutFd_, POLLIN, 0}, {stderrFd_, POLLIN, 0}, {wakeRead_, POLLIN, 0}};
    if (stdoutFd_ < 0 && stderrFd_ < 0) break;
    int ready = ::poll(fds, 3, -1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[2].revents) break;
    for (int i = 0; i < 2; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      int& fd = i == 0 ? stdoutFd_ : stderrFd_;
      ssize_t n = ::read(fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      std::lock_guard lock(mutex_);
      if (n > 0) {
        (i == 0 ? stdoutBuffer_ : stderrBuffer_).append(buffer, static_cast<size_t>(n));
      } else {
        closeFd(fd);
        (i == 0 ? stdoutEof_ : stderrEof_) = true;
      }
      outputChanged_.notify_all();
    }
  }
  std::lock_guard lock(mutex_);
  stdoutEof_ = stderrEof_ = true;
  outputChanged_.notify_all();
}

bool Subprocess::writeStdin(std::string_view text) {
  std::lock_guard lock(stdinMutex_);
  while (!text.empty()) {
    if (stdinFd_ < 0) return false;
    ssize_t n = ::write(stdinFd_, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    text.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

void Subprocess::closeStdin() {
  std::lock_guard lock(stdinMutex_);
  closeFd(stdinFd_);
}

std::optional<std::string> Subprocess::readLine(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  outputChanged_.wait_for(lock, timeout,
                          [&] { return stdoutEof_ || stdoutBuffer_.find('\n') != std::string::npos; });
  size_t nl = stdoutBuffer_.find('\n');
  if (nl != std::string::npos) {
    std::string line = stdoutBuffer_.substr(0, nl);
    stdoutBuffer_.erase(0, nl + 1);
    return line;
  }
  if (stdoutEof_ && !stdoutBuffer_.empty()) return std::exchange(stdoutBuffer_, {});
  return std::nullopt;
}

std::optional<std::string> Subprocess::readSome(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  outputChanged_.wait_for(lock, timeout, [&] { return stdoutEof_ || !stdoutBuffer_.empty(); });
  if (stdoutBuffer_.empty()) return std::nullopt;
  return std::exchange(stdoutBuffer_, {});
}

bool Subprocess::stdoutEnded() const {
  std::lock_guard lock(mutex_);
  return stdoutEof_ && stdoutBuffer_.empty();
}

std::string Subprocess::stderrText() const {
  std::lock_guard lock(mutex_);
  return stderrBuffer_;
}

std::string Subprocess::drainStderr() {
  std::lock_guard lock(mutex_);
  return std::exchange(stderrBuffer_, {});
}

std::optional<ExitStatus> Subprocess::wait(std::chrono::milliseconds timeout) {
  std::lock_guard lock(waitMutex_);
  if (!status_) {
    status_ = child_->waitFor(timeout);
    // The child is gone, but the reader may not have taken its last output
    // yet: give it a moment, so stderrText() after wait() is complete (a
    // descendant still holding the pipes only costs the bound).
    std::unique_lock output(mutex_);
    if (status_) outputChanged_.wait_for(output, std::chrono::seconds(2), [&] { return stdoutEof_ && stderrEof_; });
  }
  return status_;
}

std::optional<ExitStatus> Subprocess::exitStatus() const {
  std::lock_guard lock(waitMutex_);
  return status_;
}

void Subprocess::kill(int sig) {
  {
    std::lock_guard lock(waitMutex_);
    if (status_) return;  // reaped: the pid may belong to someone else now
  }
  child_->signalGroup(sig);
}

bool processAlive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return false;
  size_t close = stat.rfind(')');
  char state = close != std::string::npos && close + 2 < stat.size() ? stat[close + 2] : '?';
  return state != 'Z' && state != 'X';
}

}  // namespace lathe::testing
