// Runs a handle's callbacks until it is closed; close() waits for a callback
// running on another thread, so a callback never outlives what it captured.
// Shared by Timer, PipeReader and SignalWatcher (protocol/exec only).
#pragma once

#include <thread>

#include "protocol/base/thread_annotations.h"

namespace lathe::exec {

class CallbackGate {
 public:
  // Runs fn unless closed; false when closed.
  template <class Fn>
  bool run(Fn&& fn) EXCLUDES(mutex_) {
    {
      MutexLock lock(mutex_);
      if (closed_) return false;
      ++running_;
      runner_ = std::this_thread::get_id();
    }
    fn();
    MutexLock lock(mutex_);
    --running_;
    finished_.notifyAll();
    return true;
  }

  // After it returns, no callback runs, and none is running except the
  // caller's own (closing from inside a callback).
  void close() EXCLUDES(mutex_) {
    MutexLock lock(mutex_);
    closed_ = true;
    while (running_ != 0 && runner_ != std::this_thread::get_id()) finished_.wait(lock);
  }

  bool closed() const EXCLUDES(mutex_) {
    MutexLock lock(mutex_);
    return closed_;
  }

 private:
  mutable Mutex mutex_;
  CondVar finished_;
  bool closed_ GUARDED_BY(mutex_) = false;
  int running_ GUARDED_BY(mutex_) = 0;  // callbacks of one handle run one at a time (on the reactor)
  std::thread::id runner_ GUARDED_BY(mutex_);
};

}  // namespace lathe::exec
