// Delivers process signals (SIGINT, SIGTERM) through the executor's reactor
// (an Asio signal_set): each delivery runs onSignal there until the watcher
// is destroyed. The signals must not be blocked in every thread.
//
// Threads: onSignal runs on the reactor and must not block; the destructor
// waits for a running onSignal (unless called from it).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "protocol/exec/executor.h"

namespace lathe::exec {

class SignalWatcher {
 public:
  SignalWatcher(Executor& executor, std::vector<int> signals, std::function<void(int signal)> onSignal);
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace lathe::exec
