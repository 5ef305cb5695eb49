// Child process trees for shell commands: posix_spawn into a new session,
// poll()-driven waits, /proc scans to find and kill the whole tree. Runs on the
// thread that owns the ShellProcess; cancel callbacks only poke an eventfd.
#include "tools/process/process_runner.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <map>
#include <unordered_map>

extern char** environ;

namespace lathe::tools::shell {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr size_t kReadChunk = 64 * 1024;
constexpr size_t kReadPerWakeup = 1024 * 1024;  // then look at cancel and timers again

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::string errnoText(const char* what, int err) { return std::string(what) + ": " + std::strerror(err); }

// An eventfd that a cancel callback may poke from any thread, even after the
// waiter stopped listening: the callback keeps it alive.
struct Waker {
  int fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  ~Waker() { closeFd(fd); }
  void wake() const {
    uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(fd, &one, sizeof one);
  }
};

struct CancelWatch {
  std::shared_ptr<Waker> waker = std::make_shared<Waker>();
  CancelToken::Registration registration;
  explicit CancelWatch(const CancelToken& cancel)
      : registration(cancel.onCancel([w = waker] { w->wake(); })) {}
};

std::vector<std::string> buildEnvironment(const SpawnSpec& spec) {
  std::vector<std::pair<std::string, std::string>> overrides = {
      {"GEMINI_CLI", "1"}, {"LATHE_AGENT", "1"}, {"PAGER", "cat"}, {"GIT_PAGER", "cat"}};
  overrides.insert(overrides.end(), spec.env.begin(), spec.env.end());
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string_view entry(*e);
    std::string_view name = entry.substr(0, entry.find('='));
    bool replaced = std::any_of(overrides.begin(), overrides.end(), [&](const auto& o) { return o.first == name; });
    if (!replaced) env.emplace_back(entry);
  }
  for (const auto& [name, value] : overrides) {
    auto same = [&](const std::string& e) { return e.compare(0, name.size() + 1, name + "=") == 0; };
    std::erase_if(env, same);  // a later override of the same name wins
    env.push_back(name + "=" + value);
  }
  return env;
}

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

struct ProcStat {
  pid_t pid = 0;
  pid_t ppid = 0;
  pid_t pgrp = 0;
  pid_t session = 0;
  char state = '?';
  unsigned long long start = 0;  // start time in clock ticks since boot: tells a reused pid apart
};

bool readProcStat(pid_t pid, ProcStat& out) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[512];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return false;
  buf[n] = '\0';
  const char* close = std::strrchr(buf, ')');  // the command name may hold ')' and spaces
  if (!close) return false;
  char state = '?';
  int ppid = 0, pgrp = 0, session = 0;
  unsigned long long start = 0;
  int fields = std::sscanf(close + 1, " %c %d %d %d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
                      &state, &ppid, &pgrp, &session, &start);
  if (fields != 5) return false;
  out = ProcStat{pid, ppid, pgrp, session, state, start};
  return true;
}

bool isDead(char state) { return state == 'Z' || state == 'X' || state == 'x'; }

// The live processes of the tree rooted at session/group `sid`.
std::vector<ProcStat> scanTree(pid_t sid) {
  std::vector<ProcStat> all;
  if (DIR* dir = ::opendir("/proc")) {
    while (dirent* entry = ::readdir(dir)) {
      char* end = nullptr;
      long pid = std::strtol(entry->d_name, &end, 10);
      if (pid <= 0 || *end != '\0') continue;
      ProcStat stat;
      if (readProcStat(static_cast<pid_t>(pid), stat)) all.push_back(stat);
    }
    ::closedir(dir);
  }
  std::unordered_map<pid_t, std::vector<size_t>> children;
  for (size_t i = 0; i < all.size(); ++i) children[all[i].ppid].push_back(i);
  std::vector<char> inTree(all.size(), 0);
  std::vector<size_t> stack;
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].pgrp == sid || all[i].session == sid || all[i].pid == sid) stack.push_back(i);
  }
  while (!stack.empty()) {
    size_t i = stack.back();
    stack.pop_back();
    if (inTree[i]) continue;
    inTree[i] = 1;
    if (auto it = children.find(all[i].pid); it != children.end()) {
      for (size_t c : it->second) stack.push_back(c);
    }
  }
  std::vector<ProcStat> tree;
  for (size_t i = 0; i < all.size(); ++i) {
    if (inTree[i] && !isDead(all[i].state) && all[i].pid != ::getpid()) tree.push_back(all[i]);
  }
  return tree;
}

// True when `pid` is still the live process that started at `start`.
bool stillAlive(pid_t pid, unsigned long long start) {
  ProcStat stat;
  return readProcStat(pid, stat) && stat.start == start && !isDead(stat.state);
}

}  // namespace

std::vector<std::string> bashArgv(const std::string& command) { return {"bash", "-c", command}; }

std::vector<pid_t> processTree(pid_t sid) {
  std::vector<pid_t> pids;
  for (const auto& p : scanTree(sid)) pids.push_back(p.pid);
  return pids;
}

Result<std::unique_ptr<ShellProcess>> ShellProcess::spawn(const SpawnSpec& spec) {
  if (spec.argv.empty()) return makeError(Errc::invalid_params, "spawn: empty argv");
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return makeError(Errc::io, errnoText("pipe", errno));

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, out[1], 2);
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults, mask;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2, SIGTSTP, SIGTTIN,
                  SIGTTOU, SIGXFSZ}) {
    sigaddset(&defaults, sig);
  }
  sigemptyset(&mask);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &mask);
  // A new session: its own process group, and no controlling terminal, so
  // nothing can stop on or prompt through /dev/tty.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  std::vector<std::string> args = spec.argv;
  std::vector<std::string> env = buildEnvironment(spec);
  std::vector<char*> argp = pointers(args);
  std::vector<char*> envp = pointers(env);
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, argp[0], &actions, &attr, argp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(out[1]);
  if (rc != 0) {
    ::close(out[0]);
    std::string where = spec.cwd.empty() ? "" : " in " + spec.cwd;
    return makeError(Errc::io, "cannot start " + spec.argv[0] + where + ": " + std::strerror(rc));
  }
  ::fcntl(out[0], F_SETFL, ::fcntl(out[0], F_GETFL) | O_NONBLOCK);

  std::unique_ptr<ShellProcess> process(new ShellProcess());
  process->pid_ = pid;
  process->outFd_ = out[0];
  process->pidFd_ = openPidFd(pid);
  return process;
}

ShellProcess::~ShellProcess() {
  if (!reaped_ && pid_ > 0) killTree(milliseconds(1000));
  closeFd(outFd_);
  closeFd(pidFd_);
}

void ShellProcess::reap(bool block) {
  if (reaped_) return;
  int status = 0;
  pid_t r;
  do {
    r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == 0) return;
  reaped_ = true;
  closeFd(pidFd_);
  if (r < 0) return;  // ECHILD: someone else reaped it; the status is unknown
  if (WIFEXITED(status)) exit_.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) exit_.signal = WTERMSIG(status);
}

void ShellProcess::readAvailable(const ChunkSink& sink, size_t limit) {
  char buf[kReadChunk];
  size_t total = 0;
  while (outFd_ >= 0 && total < limit) {
    ssize_t n = ::read(outFd_, buf, sizeof buf);
    if (n > 0) {
      total += static_cast<size_t>(n);
      if (sink) sink(std::string_view(buf, static_cast<size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    outEof_ = true;  // end of file, or an error that ends reading all the same
    closeFd(outFd_);
  }
}

ShellExit ShellProcess::waitForShell(const CancelToken& cancel, const WaitOptions& options, const ChunkSink& sink) {
  if (reaped_) return exit_;
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
    auto now = Clock::now();
    milliseconds timeout(-1);
    auto shorten = [&](milliseconds t) {
      t = std::max(t, milliseconds(0));
      timeout = timeout.count() < 0 ? t : std::min(timeout, t);
    };
    if (options.inactivity.count() > 0) {
      shorten(std::chrono::duration_cast<milliseconds>(lastOutput + options.inactivity - now) + milliseconds(1));
    }
    if (options.tickInterval.count() > 0 && options.onTick) {
      shorten(std::chrono::duration_cast<milliseconds>(lastTick + options.tickInterval - now));
    }
    if (pidFd_ < 0) shorten(milliseconds(20));  // no pidfd: look at the shell with waitpid

    pollfd fds[3];
    nfds_t count = 0;
    fds[count++] = pollfd{watch.waker->fd, POLLIN, 0};
    int outIndex = -1, pidIndex = -1;
    if (outFd_ >= 0) {
      outIndex = static_cast<int>(count);
      fds[count++] = pollfd{outFd_, POLLIN, 0};
    }
    if (pidFd_ >= 0) {
      pidIndex = static_cast<int>(count);
      fds[count++] = pollfd{pidFd_, POLLIN, 0};
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
    bool shellDone = pidIndex >= 0 ? fds[pidIndex].revents != 0 : false;
    if (pidFd_ < 0) {
      reap(false);
      shellDone = reaped_;
    }
    if (shellDone) {
      reap(true);
      readAvailable(counting, 16 * kReadPerWakeup);  // what it wrote before exiting
      break;
    }
    now = Clock::now();
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

void ShellProcess::waitForTree(const CancelToken& cancel, const ChunkSink& sink, milliseconds killGrace) {
  CancelWatch watch(cancel);
  while (true) {
    if (cancel.cancelled()) {
      killTree(killGrace);
      return;
    }
    pollfd fds[2];
    nfds_t count = 0;
    fds[count++] = pollfd{watch.waker->fd, POLLIN, 0};
    if (outFd_ >= 0) fds[count++] = pollfd{outFd_, POLLIN, 0};
    int ready = ::poll(fds, count, 500);
    if (ready < 0 && errno != EINTR) return;
    if (count > 1 && fds[1].revents != 0) readAvailable(sink, kReadPerWakeup);
    if (ready == 0 || outFd_ < 0) {
      reap(false);
      if (processTree(pid_).empty()) {  // zombies no one reaps do not count
        readAvailable(sink, kReadPerWakeup);
        return;
      }
    }
  }
}

std::vector<pid_t> ShellProcess::leftovers() const {
  std::vector<pid_t> tree = processTree(pid_);
  std::erase(tree, pid_);
  return tree;
}

bool ShellProcess::groupAlive() const { return ::kill(-pid_, 0) == 0 || errno == EPERM; }

void ShellProcess::killTree(milliseconds grace) {
  // Every process ever seen in the tree, by pid and start time: once a parent
  // dies its orphans leave the tree (reparented to init), but stay known here.
  std::map<pid_t, unsigned long long> known;
  auto collect = [&] {
    size_t before = known.size();
    for (const auto& p : scanTree(pid_)) known.emplace(p.pid, p.start);
    return known.size() != before;
  };
  auto signalAll = [&](int sig) {
    // The group first (one call, atomic against forks in it), then each known
    // process, wherever it went.
    if (!reaped_ || groupAlive()) ::kill(-pid_, sig);
    for (const auto& [pid, start] : known) {
      if (stillAlive(pid, start)) ::kill(pid, sig);
    }
  };
  auto gone = [&] {
    reap(false);
    collect();
    if (!reaped_) return false;
    return std::none_of(known.begin(), known.end(), [](const auto& p) { return stillAlive(p.first, p.second); });
  };

  // Freeze the tree first, so that no process can fork or leave it (a dying
  // parent would orphan a setsid child) while it is being looked at.
  collect();
  for (int round = 0; round < 10; ++round) {
    signalAll(SIGSTOP);
    if (!collect()) break;
  }
  signalAll(SIGTERM);
  signalAll(SIGCONT);  // stopped processes must run to act on SIGTERM
  auto deadline = Clock::now() + grace;
  milliseconds pause(1);
  while (!gone() && Clock::now() < deadline) {
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, milliseconds(20));
  }
  auto hardDeadline = Clock::now() + milliseconds(1000);
  while (!gone() && Clock::now() < hardDeadline) {
    signalAll(SIGKILL);
    std::this_thread::sleep_for(milliseconds(5));
  }
}

}  // namespace lathe::tools::shell
