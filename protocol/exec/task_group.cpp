// TaskGroup: a count of unfinished tasks and the token they share.
#include "protocol/exec/task_group.h"

#include <utility>

#include "protocol/base/thread_annotations.h"

namespace lathe::exec {

struct TaskGroup::State {
  Mutex mutex;
  CondVar idle;
  CancelToken token GUARDED_BY(mutex) = CancelToken::create();
  size_t active GUARDED_BY(mutex) = 0;
  bool joined GUARDED_BY(mutex) = false;
};

TaskGroup::TaskGroup(Executor& executor) : executor_(executor), state_(std::make_shared<State>()) {}

TaskGroup::~TaskGroup() {
  cancelAll();
  join();
}

std::optional<CancelToken> TaskGroup::post(std::function<void(const CancelToken&)> work) {
  CancelToken token;
  {
    MutexLock lock(state_->mutex);
    if (state_->joined) return std::nullopt;
    token = state_->token.child();
    ++state_->active;
  }
  executor_.post([state = state_, token, work = std::move(work)]() mutable {
    work(token);
    work = nullptr;  // what the task captured goes before the group counts it done
    MutexLock lock(state->mutex);
    if (--state->active == 0) state->idle.notifyAll();
  });
  return token;
}

void TaskGroup::cancelAll() {
  CancelToken old;
  {
    MutexLock lock(state_->mutex);
    old = std::exchange(state_->token, CancelToken::create());
  }
  old.cancel();
}

void TaskGroup::waitIdle() {
  if (executor_.manual()) {
    executor_.drain();
    return;
  }
  MutexLock lock(state_->mutex);
  while (state_->active != 0) state_->idle.wait(lock);
}

void TaskGroup::join() {
  {
    MutexLock lock(state_->mutex);
    state_->joined = true;
  }
  waitIdle();
}

size_t TaskGroup::active() const {
  MutexLock lock(state_->mutex);
  return state_->active;
}

}  // namespace lathe::exec
