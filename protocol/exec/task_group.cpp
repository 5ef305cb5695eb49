// TaskGroup: a count of unfinished tasks and the token they share.
#include "protocol/exec/task_group.h"

#include <condition_variable>
#include <mutex>
#include <utility>

namespace lathe::exec {

struct TaskGroup::State {
  std::mutex mutex;
  std::condition_variable idle;
  CancelToken token = CancelToken::create();
  size_t active = 0;
  bool joined = false;
};

TaskGroup::TaskGroup(Executor& executor) : executor_(executor), state_(std::make_shared<State>()) {}

TaskGroup::~TaskGroup() {
  cancelAll();
  join();
}

std::optional<CancelToken> TaskGroup::post(std::function<void(const CancelToken&)> work) {
  CancelToken token;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->joined) return std::nullopt;
    token = state_->token.child();
    ++state_->active;
  }
  executor_.post([state = state_, token, work = std::move(work)]() mutable {
    work(token);
    work = nullptr;  // what the task captured goes before the group counts it done
    std::lock_guard lock(state->mutex);
    if (--state->active == 0) state->idle.notify_all();
  });
  return token;
}

void TaskGroup::cancelAll() {
  CancelToken old;
  {
    std::lock_guard lock(state_->mutex);
    old = std::exchange(state_->token, CancelToken::create());
  }
  old.cancel();
}

void TaskGroup::waitIdle() {
  if (executor_.manual()) {
    executor_.drain();
    return;
  }
  std::unique_lock lock(state_->mutex);
  state_->idle.wait(lock, [&] { return state_->active == 0; });
}

void TaskGroup::join() {
  {
    std::lock_guard lock(state_->mutex);
    state_->joined = true;
  }
  waitIdle();
}

size_t TaskGroup::active() const {
  std::lock_guard lock(state_->mutex);
  return state_->active;
}

}  // namespace lathe::exec
