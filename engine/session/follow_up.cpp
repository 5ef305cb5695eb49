// The follow-up thread drains the queue and ends; the next post starts a new
// one (after joining the old, which has ended or is ending).
#include "engine/session/follow_up.h"

#include <system_error>

namespace lathe::engine {

FollowUp::~FollowUp() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  cancel_.cancel();
  if (thread_.joinable()) thread_.join();
}

bool FollowUp::post(Work work) {
  std::thread previous;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    queue_.push_back(std::move(work));
    if (running_) return true;
    previous = std::move(thread_);
    try {
      thread_ = std::thread([this] { drain(); });
    } catch (const std::system_error&) {
      queue_.pop_back();
      return false;
    }
    running_ = true;
  }
  if (previous.joinable()) previous.join();
  return true;
}

void FollowUp::drain() {
  std::unique_lock lock(mutex_);
  while (!queue_.empty() && !stopping_) {
    Work work = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    work(cancel_);
    lock.lock();
  }
  running_ = false;
}

}  // namespace lathe::engine
