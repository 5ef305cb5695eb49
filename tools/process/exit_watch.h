// Notices on the executor's reactor that a child exited, without reaping it
// (its owner reaps, on its own thread): the child's pidfd turning readable,
// or, where there are no pidfds, a look every 20 ms (waitid with WNOWAIT).
//
// Threads: onExit runs once on the reactor, must not block and must not stop
// the watch; stop() and the destructor may be called from any other thread
// or callback.
#pragma once

#include <functional>
#include <memory>

#include "protocol/exec/executor.h"
#include "protocol/exec/fd_watch.h"
#include "tools/process/child_process.h"

namespace lathe::tools::process {

class ExitWatch {
 public:
  ExitWatch() = default;
  ExitWatch(ExitWatch&&) noexcept = default;
  ExitWatch& operator=(ExitWatch&&) noexcept;
  ~ExitWatch();  // stop()

  static ExitWatch start(exec::Executor& executor, const ChildProcess& child, std::function<void()> onExit);
  // After it returns onExit never runs and is not running. Idempotent.
  void stop();

  struct Polling;

 private:
  exec::FdWatch pidFd_;
  std::shared_ptr<Polling> polling_;  // no pidfd
};

}  // namespace lathe::tools::process
