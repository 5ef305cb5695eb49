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
    if (running_ || held_) return true;
    running_ = true;
  }
  return start();
}

void FollowUp::hold() {
  MutexLock lock(mutex_);
  held_ = true;
}

void FollowUp::release() {
  {
    MutexLock lock(mutex_);
    held_ = false;
    if (running_ || queue_.empty() || stopping_) return;
    running_ = true;
  }
  (void)start();
}

bool FollowUp::start() {
  if (tasks_.post([this](const CancelToken& cancel) { drain(cancel); })) return true;
  MutexLock lock(mutex_);
  running_ = false;
  return false;
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
