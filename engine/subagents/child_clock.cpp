// A sub-agent's time limit. The timer runs on the reactor, which must not
// block: the cancellation (which stops HTTP clients) runs on a worker.
#include "engine/subagents/child_clock.h"

namespace lathe::engine {

ChildClock::ChildClock(const CancelToken& parent, std::chrono::milliseconds limit, exec::Executor& executor)
    : executor_(executor),
      token_(parent.child()),
      fired_(std::make_shared<std::atomic<bool>>(false)),
      left_(limit),
      since_(Clock::now()) {
  std::lock_guard lock(mutex_);
  arm();
}

void ChildClock::arm() {
  since_ = Clock::now();
  timer_ = executor_.after(left_, [&executor = executor_, token = token_, fired = fired_] {
    *fired = true;
    executor.post([token] { token.cancel(); });
  });
}

void ChildClock::pause() {
  std::lock_guard lock(mutex_);
  if (paused_++ > 0 || fired_->load()) return;
  timer_.cancel();
  auto used = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since_);
  left_ = std::max(left_ - used, std::chrono::milliseconds(0));
}

void ChildClock::resume() {
  std::lock_guard lock(mutex_);
  if (paused_ == 0 || --paused_ > 0 || fired_->load()) return;
  arm();
}

}  // namespace lathe::engine
