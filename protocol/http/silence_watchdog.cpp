// Re-arming replaces the timer: cancel() waits for a callback that is
// running, so after it either the window ran out (fired) or it never will.
// The timer runs on the reactor, which must not block; cancelling stops an
// HTTP client (httplib's stop() waits while a connect holds the socket), so
// the cancellation itself runs on a worker, as a Deadline's does.
#include "protocol/http/silence_watchdog.h"

namespace lathe::http {

SilenceWatchdog::SilenceWatchdog(exec::Executor& executor, std::chrono::milliseconds window, CancelToken target)
    : executor_(executor), window_(window), target_(std::move(target)), fired_(std::make_shared<std::atomic<bool>>(false)) {
  listen();
}

void SilenceWatchdog::heard() { timer_.cancel(); }

void SilenceWatchdog::listen() {
  timer_.cancel();
  if (fired()) return;
  timer_ = executor_.after(window_, [&executor = executor_, token = target_, fired = fired_] {
    *fired = true;
    executor.post([token] { token.cancel(); });
  });
}

}  // namespace lathe::http
