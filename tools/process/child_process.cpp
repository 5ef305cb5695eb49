// posix_spawn of a child with its pipes, wait4 for its status. Runs on the
// thread that owns the ChildProcess.
#include "tools/process/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

#include "tools/process/process_tree.h"
#include "tools/process/subreaper.h"

namespace lathe::tools::process {
namespace {

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::string errnoText(const char* what, int err) { return std::string(what) + ": " + std::strerror(err); }

double seconds(const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6; }

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

int openPidFd(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  return -1;
#endif
}

// The pipes a spec asks for: [parent end, child end] pairs, -1 when unused.
struct Pipes {
  int in[2] = {-1, -1};
  int out[2] = {-1, -1};
  int err[2] = {-1, -1};

  ~Pipes() {
    for (int* p : {in, out, err}) {
      closeFd(p[0]);
      closeFd(p[1]);
    }
  }
  Status open(const ProcessSpec& spec) {
    if (spec.stdinMode == StdinMode::pipe && ::pipe2(in, O_CLOEXEC) != 0) return makeError(Errc::io, errnoText("pipe", errno));
    if (spec.output != OutputMode::discard && ::pipe2(out, O_CLOEXEC) != 0) return makeError(Errc::io, errnoText("pipe", errno));
    if (spec.output == OutputMode::separate && ::pipe2(err, O_CLOEXEC) != 0) return makeError(Errc::io, errnoText("pipe", errno));
    return {};
  }
  void closeChildEnds() {
    closeFd(in[0]);
    closeFd(out[1]);
    closeFd(err[1]);
  }
};

void addStdio(posix_spawn_file_actions_t& actions, const ProcessSpec& spec, const Pipes& pipes) {
  if (spec.stdinMode == StdinMode::pipe) {
    posix_spawn_file_actions_adddup2(&actions, pipes.in[0], 0);
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  }
  switch (spec.output) {
    case OutputMode::merged:
      posix_spawn_file_actions_adddup2(&actions, pipes.out[1], 1);
      posix_spawn_file_actions_adddup2(&actions, pipes.out[1], 2);
      break;
    case OutputMode::separate:
      posix_spawn_file_actions_adddup2(&actions, pipes.out[1], 1);
      posix_spawn_file_actions_adddup2(&actions, pipes.err[1], 2);
      break;
    case OutputMode::discard:
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
      posix_spawn_file_actions_adddup2(&actions, 1, 2);
      break;
  }
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
}

void setAttributes(posix_spawnattr_t& attr, Grouping grouping) {
  sigset_t defaults, mask;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2, SIGTSTP, SIGTTIN,
                  SIGTTOU, SIGXFSZ}) {
    sigaddset(&defaults, sig);
  }
  sigemptyset(&mask);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &mask);
  short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
  if (grouping == Grouping::newSession) {
    // Its own session and group, and no controlling terminal, so nothing can
    // stop on or prompt through /dev/tty.
    flags |= POSIX_SPAWN_SETSID;
  } else {
    posix_spawnattr_setpgroup(&attr, 0);
    flags |= POSIX_SPAWN_SETPGROUP;
  }
  posix_spawnattr_setflags(&attr, flags);
}

}  // namespace

std::string ExitStatus::describe() const {
  if (signal != 0) return "signal " + std::to_string(signal);
  if (exitCode) return "exit " + std::to_string(*exitCode);
  return "unknown";
}

Result<std::unique_ptr<ChildProcess>> ChildProcess::spawn(const ProcessSpec& spec) {
  if (spec.argv.empty()) return makeError(Errc::invalid_params, "spawn: empty argv");
  Pipes pipes;
  if (Status opened = pipes.open(spec); !opened) return opened.error();

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  addStdio(actions, spec, pipes);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  setAttributes(attr, spec.grouping);

  std::vector<std::string> args = spec.argv;
  std::vector<std::string> env = childEnvironment(spec.env);
  std::vector<char*> argp = pointers(args);
  std::vector<char*> envp = pointers(env);
  pid_t pid = -1;
  int rc;
  {
    auto own = OwnChildren::lock();  // registered before the subreaper could take it for an orphan
    rc = ::posix_spawnp(&pid, argp[0], &actions, &attr, argp.data(), envp.data());
    if (rc == 0) OwnChildren::add(pid);
  }
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  pipes.closeChildEnds();
  if (rc != 0) {
    std::string where = spec.cwd.empty() ? "" : " in " + spec.cwd;
    return makeError(Errc::io, "cannot start " + spec.argv[0] + where + ": " + std::strerror(rc));
  }
  std::unique_ptr<ChildProcess> child(new ChildProcess());
  child->pid_ = pid;
  child->stdinFd_ = std::exchange(pipes.in[1], -1);
  child->stdoutFd_ = std::exchange(pipes.out[0], -1);
  child->stderrFd_ = std::exchange(pipes.err[0], -1);
  child->pidFd_ = openPidFd(pid);
  return child;
}

ChildProcess::~ChildProcess() {
  if (!reaped_ && pid_ > 0) killTree(std::chrono::milliseconds(1000));
  closeFd(stdinFd_);
  closeFd(stdoutFd_);
  closeFd(stderrFd_);
  closeFd(pidFd_);
}

int ChildProcess::takeStdin() { return std::exchange(stdinFd_, -1); }
int ChildProcess::takeStdout() { return std::exchange(stdoutFd_, -1); }
int ChildProcess::takeStderr() { return std::exchange(stderrFd_, -1); }
void ChildProcess::closeStdin() { closeFd(stdinFd_); }
void ChildProcess::closeStdout() { closeFd(stdoutFd_); }

void ChildProcess::reap(bool block) {
  if (reaped_) return;
  int status = 0;
  rusage usage{};
  pid_t r;
  do {
    r = ::wait4(pid_, &status, block ? 0 : WNOHANG, &usage);
  } while (r < 0 && errno == EINTR);
  if (r == 0) return;
  reaped_ = true;
  OwnChildren::forget(pid_);
  closeFd(pidFd_);
  if (r < 0) return;  // ECHILD: someone else reaped it; the status is unknown
  if (WIFEXITED(status)) exit_.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) exit_.signal = WTERMSIG(status);
  exit_.maxRssKb = usage.ru_maxrss;
  exit_.userSeconds = seconds(usage.ru_utime);
  exit_.systemSeconds = seconds(usage.ru_stime);
}

bool ChildProcess::tryReap() {
  reap(false);
  return reaped_;
}

const ExitStatus& ChildProcess::waitExit() {
  reap(true);
  return exit_;
}

std::optional<ExitStatus> ChildProcess::waitFor(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto step = std::chrono::microseconds(200);
  while (!tryReap()) {
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(step);
    step = std::min(step * 2, std::chrono::microseconds(10000));
  }
  return exit_;
}

void ChildProcess::signalGroup(int sig) {
  if (!reaped_ && pid_ > 0) ::kill(-pid_, sig);
}

void ChildProcess::killTree(std::chrono::milliseconds grace) {
  killProcessTree(pid_, grace, [this] { return tryReap(); });
}

std::vector<pid_t> ChildProcess::leftovers() const {
  std::vector<pid_t> tree = processTree(pid_);
  std::erase(tree, pid_);
  return tree;
}

bool ChildProcess::groupAlive() const { return process::groupAlive(pid_); }

}  // namespace lathe::tools::process
