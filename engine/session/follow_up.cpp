// One task at a time drains the queue and ends; the next post starts another.
#include "engine/session/follow_up.h"

namespace lathe::engine {

FollowUp::~FollowUp() {
  {
    MutexLock lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  tasks_.cancelAll();
  tasks_.join();
}

bool FollowUp::post(Work work) {
  {
    MutexLock lock(mutex_);
    if (stopping_) return false;
    queue_.push_back(std::move(work));
    if (running_) return true;
    running_ = true;
  }
  if (!tasks_.post([this](const CancelToken& cancel) { drain(cancel); })) {
    MutexLock lock(mutex_);
    running_ = false;
    return false;
  }
  return true;
}

void FollowUp::drain(const CancelToken& cancel) {
  MutexLock lock(mutex_);
  while (!queue_.empty() && !stopping_) {
    Work work = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    work(cancel);
    work = nullptr;
    lock.lock();
  }
  running_ = false;
}

}  // namespace lathe::engine
