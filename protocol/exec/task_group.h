// Background work that belongs together (a session's turns, a parallel batch
// of read-only tools, MCP servers starting): each task runs on an executor's
// worker with a CancelToken that cancelAll() cancels, and the group can wait
// until none is queued or running. Destruction cancels and joins.
//
// Threads: any member from any thread, except that a task must not wait for
// its own group (waitIdle/join from inside a task deadlocks).
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "protocol/base/cancel.h"
#include "protocol/exec/executor.h"

namespace lathe::exec {

class TaskGroup {
 public:
  explicit TaskGroup(Executor& executor = Executor::shared());
  ~TaskGroup();  // cancelAll(), then join()
  TaskGroup(const TaskGroup&) = delete;
  TaskGroup& operator=(const TaskGroup&) = delete;

  // Queues `work` with its own token: cancelled by cancelAll() or through the
  // returned token. Nothing when the group was joined.
  std::optional<CancelToken> post(std::function<void(const CancelToken&)> work);
  // Cancels the tokens of every task posted so far; later tasks get fresh ones.
  void cancelAll();
  // Until no task is queued or running. Manual mode: drains the executor
  // instead of waiting (a task waiting on a timer needs advance()).
  void waitIdle();
  // Takes no more tasks, then waits as waitIdle().
  void join();
  // Tasks queued or running.
  size_t active() const;

 private:
  struct State;
  Executor& executor_;
  std::shared_ptr<State> state_;
};

}  // namespace lathe::exec
