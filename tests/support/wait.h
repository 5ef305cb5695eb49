// How tests wait: on a notification from the object that makes the condition
// true (Notice), or, where nothing can notify, by polling with one shared,
// bounded helper (pollUntil) instead of ad-hoc sleep loops. Test-only.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>

namespace lathe::testing {

// A condition the test waits for, signalled by the code that changes it: the
// changer calls update() (or notify() after changing atomics), the waiter
// waitFor() with a bound. No polling: the waiter wakes on each change.
class Notice {
 public:
  template <typename Change>
  void update(Change&& change) {
    {
      std::lock_guard lock(mutex_);
      change();
    }
    changed_.notify_all();
  }
  void notify() { update([] {}); }

  // True once `holds` is true; false when `bound` passed first.
  template <typename Pred>
  bool waitFor(Pred holds, std::chrono::milliseconds bound = std::chrono::seconds(10)) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, bound, holds);
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
};

// Polls `holds` until it is true or `bound` passes. Only for what cannot notify
// the test: files another process writes, processes the test did not start (or
// their exit once another process reaps them), a thread's scheduler state.
template <typename Pred>
bool pollUntil(Pred holds, std::chrono::milliseconds bound = std::chrono::seconds(10)) {
  auto deadline = std::chrono::steady_clock::now() + bound;
  while (!holds()) {
    if (std::chrono::steady_clock::now() >= deadline) return holds();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// The system call that thread `tid` of this process is blocked in (a number
// from <sys/syscall.h>: SYS_futex for a condition-variable wait, SYS_poll or
// SYS_recvfrom for a socket), or -1 while it runs.
inline long blockedIn(pid_t tid) {
  std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/syscall");
  std::string first;
  if (!(in >> first) || first == "running") return -1;
  try {
    return std::stol(first);
  } catch (...) {
    return -1;
  }
}

// Waits until thread `tid` blocks in a system call that `fits` (any, by
// default): the one event a thread sitting in the kernel cannot announce
// itself, so it is polled.
template <typename Fits>
bool waitUntilBlocked(pid_t tid, Fits fits, std::chrono::milliseconds bound = std::chrono::seconds(10)) {
  return pollUntil(
      [&] {
        long call = blockedIn(tid);
        return call >= 0 && fits(call);
      },
      bound);
}
inline bool waitUntilBlocked(pid_t tid, std::chrono::milliseconds bound = std::chrono::seconds(10)) {
  return waitUntilBlocked(tid, [](long) { return true; }, bound);
}

}  // namespace lathe::testing
