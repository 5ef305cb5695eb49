// A child's whole process tree: every process of its session and process
// group plus every descendant still linked to them by parent pid, found by a
// /proc scan, and its kill: freeze (SIGSTOP) until no new member shows up,
// SIGTERM + SIGCONT, SIGKILL after a grace period. Freezing first means that
// nothing forks away or is orphaned out of the tree meanwhile. Limit: a process
// that left the session (setsid) *and* whose parent had already exited before
// the kill (a daemon's double fork) was reparented to init and can no longer be
// told apart from strangers; it survives. Any thread.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <vector>

namespace lathe::tools::process {

// Every live process of the tree rooted at session/group `sid` (group or
// session members and their descendants), zombies and this process excluded.
std::vector<pid_t> processTree(pid_t sid);

// True when a process of group `pgid` is still alive (one kill(2)).
bool groupAlive(pid_t pgid);

// Kills the tree rooted at `root` (its session and group leader). `reapRoot`
// reaps the root without blocking and says whether it has been reaped (only
// then may its pid be reused, so only then is the group no longer signalled
// blindly). Returns when the tree is gone, or after a further second of
// SIGKILLs past `grace`.
void killProcessTree(pid_t root, std::chrono::milliseconds grace, const std::function<bool()>& reapRoot);

}  // namespace lathe::tools::process
