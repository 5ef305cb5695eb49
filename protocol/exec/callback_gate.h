// Runs a handle's callbacks until it is closed; close() waits for a callback
// running on another thread, so a callback never outlives what it captured.
// Shared by Timer, PipeReader and SignalWatcher (protocol/exec only).
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

namespace lathe::exec {

class CallbackGate {
 public:
  // Runs fn unless closed; false when closed.
  template <class Fn>
  bool run(Fn&& fn) {
    {
      std::lock_guard lock(mutex_);
      if (closed_) return false;
      ++running_;
      runner_ = std::this_thread::get_id();
    }
    fn();
    std::lock_guard lock(mutex_);
    --running_;
    finished_.notify_all();
    return true;
  }

  // After it returns, no callback runs, and none is running except the
  // caller's own (closing from inside a callback).
  void close() {
    std::unique_lock lock(mutex_);
    closed_ = true;
    finished_.wait(lock, [&] { return running_ == 0 || runner_ == std::this_thread::get_id(); });
  }

  bool closed() const {
    std::lock_guard lock(mutex_);
    return closed_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable finished_;
  bool closed_ = false;
  int running_ = 0;  // callbacks of one handle run one at a time (on the reactor)
  std::thread::id runner_;
};

}  // namespace lathe::exec
