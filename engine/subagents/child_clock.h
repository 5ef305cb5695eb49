// A sub-agent's time limit as a cancellation: a token cancelled with its
// parent or when the child has used its time, not counting the time it
// waits for the person to answer a permission question (paused meanwhile;
// several questions may be open at once). The time is kept by a timer on
// the executor. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>

#include "protocol/base/cancel.h"
#include "protocol/exec/executor.h"

namespace lathe::engine {

class ChildClock {
 public:
  using Clock = std::chrono::steady_clock;

  ChildClock(const CancelToken& parent, std::chrono::milliseconds limit,
             exec::Executor& executor = exec::Executor::shared());
  ChildClock(const ChildClock&) = delete;
  ChildClock& operator=(const ChildClock&) = delete;

  const CancelToken& token() const { return token_; }
  // The time ran out (the token is cancelled, or about to be).
  bool expired() const { return fired_->load(); }
  void pause();
  void resume();

 private:
  void arm();  // mutex_ held

  exec::Executor& executor_;
  CancelToken token_;
  std::shared_ptr<std::atomic<bool>> fired_;
  std::mutex mutex_;
  std::chrono::milliseconds left_;
  Clock::time_point since_;  // when the running stretch began
  int paused_ = 0;
  exec::Timer timer_;
};

}  // namespace lathe::engine
