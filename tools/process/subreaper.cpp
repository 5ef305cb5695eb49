// The reaper: woken by SIGCHLD through a signalfd (read on the executor's
// reactor), it lists this process's children (/proc/self/task/*/children) on
// a worker and reaps those that exited and that nobody owns.
#include "tools/process/subreaper.h"

#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "protocol/exec/pipe_reader.h"

namespace lathe::tools::process {
namespace {

std::mutex& ownedMutex() {
  static auto* mutex = new std::mutex;  // never freed: children may be reaped during exit
  return *mutex;
}

std::set<pid_t>& owned() {
  static auto* pids = new std::set<pid_t>;
  return *pids;
}

int& signalFd() {
  static int fd = -1;  // set once by becomeSubreaper, before any thread starts
  return fd;
}

// Every child of this process, whichever of its threads it is recorded under.
std::set<pid_t> children() {
  std::set<pid_t> out;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    std::ifstream list(task.path() / "children");
    for (pid_t pid; list >> pid;) out.insert(pid);
  }
  return out;
}

void reapOrphans() {
  for (pid_t pid : children()) {
    std::lock_guard lock(ownedMutex());
    if (owned().count(pid)) continue;
    siginfo_t info{};
    // Look without reaping first: only an exited orphan is reaped.
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0) continue;
    ::waitpid(pid, nullptr, WNOHANG);
  }
}

// Runs reapOrphans on a worker, never on the reactor: a look reads every
// thread's children file, and with a hundred turns and their children that
// would hold up every pipe and exit the reactor serves. Wake-ups that come
// while a look runs fold into one more look.
void scheduleReap() {
  static std::mutex mutex;
  static bool running = false, again = false;
  {
    std::lock_guard lock(mutex);
    if (running) {
      again = true;
      return;
    }
    running = true;
  }
  exec::Executor::shared().post([] {
    for (;;) {
      reapOrphans();
      std::lock_guard lock(mutex);
      if (!again) {
        running = false;
        return;
      }
      again = false;
    }
  });
}

}  // namespace

std::unique_lock<std::mutex> OwnChildren::lock() { return std::unique_lock(ownedMutex()); }

void OwnChildren::add(pid_t pid) {
  owned().insert(pid);
  // Orphans can only come from our own children, so the reaper (and the
  // reactor thread it wakes up) starts with the first one: a session that
  // never spawns anything never starts it. SIGCHLDs before then stay pending
  // on the signalfd, and each wake-up looks at every child anyway.
  static std::once_flag started;
  std::call_once(started, [] {
    if (signalFd() < 0) return;
    static auto* reader = new exec::PipeReader(exec::PipeReader::start(
        exec::Executor::shared(), signalFd(),
        [](std::string_view) { scheduleReap(); },  // signals merge: one wake-up may stand for many exits
        [] {}));
    (void)reader;
  });
}

void OwnChildren::forget(pid_t pid) {
  std::lock_guard lock(ownedMutex());
  owned().erase(pid);
}

Status becomeSubreaper() {
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  if (int rc = ::pthread_sigmask(SIG_BLOCK, &chld, nullptr); rc != 0) {
    return makeError(Errc::io, std::string("cannot block SIGCHLD: ") + std::strerror(rc));
  }
  int fd = ::signalfd(-1, &chld, SFD_CLOEXEC);
  if (fd < 0) return makeError(Errc::io, std::string("cannot read SIGCHLD: ") + std::strerror(errno));
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
    ::close(fd);
    return makeError(Errc::io, std::string("cannot become a child subreaper: ") + std::strerror(errno));
  }
  signalFd() = fd;
  return {};
}

}  // namespace lathe::tools::process
