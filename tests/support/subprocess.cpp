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

double seconds(const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6; }

std::vector<std::string> buildEnvironment(const SubprocessOptions& options) {
  std::set<std::string> dropped(options.unsetEnv.begin(), options.unsetEnv.end());
  for (const auto& [name, value] : options.env) dropped.insert(name);
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    std::string name = entry.substr(0, entry.find('='));
    if (!dropped.count(name)) env.push_back(std::move(entry));
  }
  for (const auto& [name, value] : options.env) env.push_back(name + "=" + value);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

std::string ExitStatus::describe() const {
  if (signal != 0) return "signal " + std::to_string(signal);
  return "exit " + std::to_string(exitCode);
}

Result<std::unique_ptr<Subprocess>> Subprocess::spawn(const SubprocessOptions& options) {
  if (options.argv.empty()) return makeError(Errc::invalid_params, "spawn: empty argv");
  signal(SIGPIPE, SIG_IGN);  // a child that exits must not kill us through a write

  int in[2], out[2], err[2], wake[2];
  if (pipe2(in, O_CLOEXEC) != 0) return makeError(Errc::io, std::string("pipe: ") + std::strerror(errno));
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0 || pipe2(wake, O_CLOEXEC) != 0) {
    return makeError(Errc::io, std::string("pipe: ") + std::strerror(errno));
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  if (!options.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, options.cwd.c_str());

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults, mask;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigemptyset(&mask);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &mask);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  std::vector<std::string> args = options.argv;
  std::vector<std::string> env = buildEnvironment(options);
  std::vector<char*> argp = pointers(args);
  std::vector<char*> envp = pointers(env);
  pid_t pid = -1;
  bool usePath = options.argv[0].find('/') == std::string::npos;
  int rc = usePath ? posix_spawnp(&pid, argp[0], &actions, &attr, argp.data(), envp.data())
                   : posix_spawn(&pid, argp[0], &actions, &attr, argp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    for (int fd : {in[1], out[0], err[0], wake[0], wake[1]}) ::close(fd);
    return makeError(Errc::io, "spawn " + options.argv[0] + ": " + std::strerror(rc));
  }

  std::unique_ptr<Subprocess> process(new Subprocess());
  process->pid_ = pid;
  process->stdinFd_ = in[1];
  process->stdoutFd_ = out[0];
  process->stderrFd_ = err[0];
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
        if (i == 0) stdoutEof_ = true;
      }
      outputChanged_.notify_all();
    }
  }
  std::lock_guard lock(mutex_);
  stdoutEof_ = true;
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
  if (status_) return status_;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto step = std::chrono::microseconds(200);
  for (;;) {
    int raw = 0;
    rusage usage{};
    pid_t r = ::wait4(pid_, &raw, WNOHANG, &usage);
    if (r == pid_) {
      ExitStatus status;
      if (WIFEXITED(raw)) status.exitCode = WEXITSTATUS(raw);
      if (WIFSIGNALED(raw)) status.signal = WTERMSIG(raw);
      status.maxRssKb = usage.ru_maxrss;
      status.userSeconds = seconds(usage.ru_utime);
      status.systemSeconds = seconds(usage.ru_stime);
      status_ = status;
      return status_;
    }
    if (r < 0 && errno != EINTR) return std::nullopt;  // not our child any more
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(step);
    step = std::min(step * 2, std::chrono::microseconds(10000));
  }
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
  if (pid_ > 0) ::kill(-pid_, sig);
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
