// A transfer's silence deadline: a timer on the executor, armed when the
// exchange starts and again each time it goes back to waiting for the server
// after hearing from it (its headers, each piece of the body); the time spent
// handling what came does not count. When the server stays silent for a whole
// window the watchdog cancels its token, which stops the exchange as any
// cancellation does. In the executor's manual mode a test moves the clock.
//
// Threads: heard() and listen() from the exchange's thread; fired() from any.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>

#include "protocol/base/cancel.h"
#include "protocol/exec/executor.h"

namespace lathe::http {

class SilenceWatchdog {
 public:
  SilenceWatchdog(exec::Executor& executor, std::chrono::milliseconds window, CancelToken target);
  ~SilenceWatchdog() = default;  // disarms the timer
  SilenceWatchdog(const SilenceWatchdog&) = delete;
  SilenceWatchdog& operator=(const SilenceWatchdog&) = delete;

  // The server said something: the clock stops while it is handled.
  void heard();
  // Waiting for the server again: a new window starts (unless one ran out).
  void listen();
  // The window ran out (the token is cancelled, or about to be).
  bool fired() const { return fired_->load(); }

 private:
  exec::Executor& executor_;
  const std::chrono::milliseconds window_;
  const CancelToken target_;
  std::shared_ptr<std::atomic<bool>> fired_;
  exec::Timer timer_;
};

}  // namespace lathe::http
