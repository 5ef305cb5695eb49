// A deadline as a cancellation: a token cancelled with its parent or when the
// time is up, whichever comes first, so that whatever already stops on
// cancellation (an HTTP exchange in any phase, a wait for a DNS answer) stops
// at the deadline too. The time is kept by a timer on the executor; in its
// manual mode a test moves the clock. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>

#include "protocol/base/cancel.h"
#include "protocol/exec/executor.h"

namespace lathe::http {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  Deadline(const CancelToken& parent, std::chrono::milliseconds within,
           exec::Executor& executor = exec::Executor::shared());
  ~Deadline() = default;  // disarms the timer
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;

  // Cancelled by the parent, or when the time is up.
  const CancelToken& token() const { return token_; }
  // The time ran out: the timer fired (the token is cancelled, or about to
  // be), or, on the real clock, the time is past (socket timeouts set to the
  // time left may trip a moment before the timer runs).
  bool expired() const { return fired_->load() || (realClock_ && Clock::now() >= when_); }
  // When the time is up, on the real clock.
  Clock::time_point when() const { return when_; }

 private:
  Clock::time_point when_;
  bool realClock_;
  CancelToken token_;
  std::shared_ptr<std::atomic<bool>> fired_;
  exec::Timer timer_;
};

}  // namespace lathe::http
