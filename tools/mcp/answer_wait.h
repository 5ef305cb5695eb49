// Waits on the caller's thread for an answer that arrives on another (a
// listing that pages on the reading side), ending early at a deadline (a
// timer on the executor) or on cancel, whichever comes first.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "protocol/exec/executor.h"

namespace lathe::tools::mcp {

template <class T>
Result<T> waitForAnswer(const std::string& what, std::chrono::milliseconds timeout, const CancelToken& cancel,
                        const std::function<void(std::function<void(Result<T>)>)>& start) {
  struct Outcome {
    std::mutex mutex;
    std::condition_variable arrived;
    std::optional<Result<T>> value;  // the first of answer, deadline, cancel
    void set(Result<T> v) {
      std::lock_guard lock(mutex);
      if (!value) value.emplace(std::move(v));
      arrived.notify_all();
    }
  };
  auto outcome = std::make_shared<Outcome>();
  start([outcome](Result<T> answer) { outcome->set(std::move(answer)); });
  auto stop = cancel.onCancel([&] { outcome->set(makeError(Errc::cancelled, what + " was cancelled")); });
  exec::Timer deadline = exec::Executor::shared().after(timeout, [outcome, what, timeout] {
    outcome->set(makeError(Errc::timeout, "no answer to " + what + " within " + std::to_string(timeout.count()) + " ms"));
  });
  std::unique_lock lock(outcome->mutex);
  outcome->arrived.wait(lock, [&] { return outcome->value.has_value(); });
  return std::move(*outcome->value);
}

}  // namespace lathe::tools::mcp
