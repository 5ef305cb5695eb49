// Process trees from /proc: scanning, and the freeze-then-kill of a whole tree.
// Any thread (the /proc scan and kill(2) hold no state between calls).
#include "tools/process/process_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <thread>
#include <unordered_map>

namespace lathe::tools::process {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

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

std::vector<ProcStat> allProcesses() {
  std::vector<ProcStat> all;
  DIR* dir = ::opendir("/proc");
  if (!dir) return all;
  while (dirent* entry = ::readdir(dir)) {
    char* end = nullptr;
    long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    ProcStat stat;
    if (readProcStat(static_cast<pid_t>(pid), stat)) all.push_back(stat);
  }
  ::closedir(dir);
  return all;
}

// The live processes of the tree rooted at session/group `sid`.
std::vector<ProcStat> scanTree(pid_t sid) {
  std::vector<ProcStat> all = allProcesses();
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

std::vector<pid_t> processTree(pid_t sid) {
  std::vector<pid_t> pids;
  for (const auto& p : scanTree(sid)) pids.push_back(p.pid);
  return pids;
}

bool groupAlive(pid_t pgid) { return ::kill(-pgid, 0) == 0 || errno == EPERM; }

void killProcessTree(pid_t root, milliseconds grace, const std::function<bool()>& reapRoot) {
  // Every process ever seen in the tree, by pid and start time: once a parent
  // dies its orphans leave the tree (reparented to init), but stay known here.
  std::map<pid_t, unsigned long long> known;
  auto collect = [&] {
    size_t before = known.size();
    for (const auto& p : scanTree(root)) known.emplace(p.pid, p.start);
    return known.size() != before;
  };
  auto signalAll = [&](int sig) {
    // The group first (one call, atomic against forks in it), then each known
    // process, wherever it went.
    if (!reapRoot() || groupAlive(root)) ::kill(-root, sig);
    for (const auto& [pid, start] : known) {
      if (stillAlive(pid, start)) ::kill(pid, sig);
    }
  };
  auto gone = [&] {
    bool reaped = reapRoot();
    collect();
    if (!reaped) return false;
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

}  // namespace lathe::tools::process
