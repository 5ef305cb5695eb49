// What reactor callbacks and cancel callbacks tell a worker thread that
// waits for a child (a foreground command, a captured run): flags raised
// from any thread, waited for on the worker, so the blocking API callers
// keep is a condition wait rather than a poll() loop of its own.
#pragma once

#include <functional>

#include "protocol/base/thread_annotations.h"

namespace lathe::tools::process {

class WakeFlags {
 public:
  void raise(unsigned flags) EXCLUDES(mutex_) {
    MutexLock lock(mutex_);
    raised_ |= flags;
    changed_.notifyAll();
  }

  // Blocks until `done(raised)` holds; returns the flags raised.
  unsigned waitUntil(const std::function<bool(unsigned raised)>& done) EXCLUDES(mutex_) {
    MutexLock lock(mutex_);
    while (!done(raised_)) changed_.wait(lock);
    return raised_;
  }

  // Clears `flags`; says which of them were raised.
  unsigned take(unsigned flags) EXCLUDES(mutex_) {
    MutexLock lock(mutex_);
    unsigned taken = raised_ & flags;
    raised_ &= ~flags;
    return taken;
  }

 private:
  Mutex mutex_;
  CondVar changed_;
  unsigned raised_ GUARDED_BY(mutex_) = 0;
};

}  // namespace lathe::tools::process
