// The timer runs on the executor's reactor, which must not block; cancelling
// stops HTTP clients (httplib's stop() waits while a connect holds the
// socket), so the cancellation itself runs on a worker.
#include "protocol/http/deadline.h"

namespace lathe::http {

Deadline::Deadline(const CancelToken& parent, std::chrono::milliseconds within, exec::Executor& executor)
    : when_(Clock::now() + within),
      realClock_(!executor.manual()),
      token_(parent.child()),
      fired_(std::make_shared<std::atomic<bool>>(false)) {
  timer_ = executor.after(within, [&executor, token = token_, fired = fired_] {
    *fired = true;
    executor.post([token] { token.cancel(); });
  });
}

}  // namespace lathe::http
