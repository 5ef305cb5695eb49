// A deadline as a cancellation: a token cancelled with its parent or when the
// time is up, whichever comes first, so that whatever already stops on
// cancellation (an HTTP exchange in any phase, a wait for a DNS answer) stops
// at the deadline too. The timer behind it is the one place where deadlines
// get their clock. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>

#include "protocol/base/cancel.h"

namespace lathe::http {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  Deadline(const CancelToken& parent, std::chrono::milliseconds within);
  ~Deadline();  // disarms the timer; once it returns, the timer no longer fires
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;

  // Cancelled by the parent, or when the time is up.
  const CancelToken& token() const { return token_; }
  // The time ran out (the token was cancelled by the timer, or is about to be).
  bool expired() const { return fired_->load() || Clock::now() >= when_; }
  Clock::time_point when() const { return when_; }

 private:
  struct Timer;
  Clock::time_point when_;
  CancelToken token_;
  std::shared_ptr<std::atomic<bool>> fired_;
  std::unique_ptr<Timer> timer_;
};

}  // namespace lathe::http
