// Lathe as a child subreaper (PR_SET_CHILD_SUBREAPER): a process that the
// children Lathe spawned leave behind (bubblewrap's after a cancel, a
// command's `server &`) becomes Lathe's child when its parent dies, instead
// of PID 1's, and is reaped here as soon as it exits, so nothing of Lathe's
// lingers as a zombie. The children Lathe spawned itself are left to their
// owners (ChildProcess reaps them with wait4): spawning registers them.
#pragma once

#include <sys/types.h>

#include <mutex>

#include "protocol/base/result.h"

namespace lathe::tools::process {

// Makes this process a subreaper; the reaper runs on the executor's reactor
// from the first child spawned (OwnChildren::add). Call once, from main, before any other thread starts: SIGCHLD is
// blocked in the calling thread (and so in every thread started after, the
// reactor's included) and read from a signalfd.
Status becomeSubreaper();

// Lathe's own children, which the reaper leaves alone. Spawn under the lock
// and register the pid before releasing it, so the reaper never mistakes a
// new child for an orphan; a child's owner forgets it once it reaped it.
class OwnChildren {
 public:
  static std::unique_lock<std::mutex> lock();
  static void add(pid_t pid);  // with the lock held
  static void forget(pid_t pid);
};

}  // namespace lathe::tools::process
