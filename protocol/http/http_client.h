// The HTTP client every model provider shares: POST a JSON body, read either a
// server-sent-event stream or one whole answer, retry transient failures
// (429, 5xx, a broken or empty answer before anything was delivered) as the
// retry policy decides, and stop at once when the cancel token fires.
// Connections are kept alive and shared through ConnectionPool::shared().
// Blocking: call it on a worker thread; several calls may run at once.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "protocol/exec/executor.h"
#include "protocol/http/retry_policy.h"
#include "protocol/http/sse.h"

namespace lathe::http {

// A base URL split into what is connected to and a path prefix.
struct Endpoint {
  std::string origin;      // "https://host[:port]"
  std::string pathPrefix;  // "" or "/some/prefix"
};
// setting names the URL in messages, e.g. "The Gemini base URL (GOOGLE_GEMINI_BASE_URL)".
Result<Endpoint> parseBaseUrl(std::string_view url, const std::string& setting);

// What an HTTP error answer means, read from its body by the provider.
struct StatusError {
  Error error;
  std::optional<std::chrono::milliseconds> retryAfter;  // the body's own retry hint
};
using DescribeStatus = std::function<StatusError(int status, std::string_view body)>;

// An event's verdict: empty to go on, or an error that ends the attempt.
struct EventError {
  Error error;
  bool retryable = false;  // honoured only while nothing was delivered
};

// An attempt failed and another follows: why, and when.
struct RetryNotice {
  Error why;
  int nextAttempt = 0;
  int maxAttempts = 0;
  std::chrono::milliseconds delay{0};
};
using RetryHook = std::function<void(const RetryNotice&)>;

struct StreamCallbacks {
  std::function<void()> onAttempt;  // a new attempt starts: drop partial state
  std::function<std::optional<EventError>(const SseEvent&)> onEvent;  // each event with data
  DescribeStatus describeStatus;
  // When set, a 200 answer of Content-Type application/json (a server that
  // ignored the request to stream) is handed over whole instead.
  std::function<std::optional<EventError>(std::string_view body)> onWholeBody;
  RetryHook onRetry;  // before each wait for another attempt (to tell the person)
};

class Client {
 public:
  using SleepFn = std::function<void(std::chrono::milliseconds, const CancelToken&)>;
  using Headers = std::vector<std::pair<std::string, std::string>>;

  struct Options {
    std::string apiName = "the API";  // in messages: "The Gemini API at URL ..."
    Headers headers;                  // sent with every request
    std::chrono::milliseconds connectTimeout{10'000};
    // Silence allowed before the answer and then within it: a watchdog timer
    // on `executor` ends the attempt when it runs out (transfer.h).
    std::chrono::milliseconds readTimeout{300'000};
    RetryPolicy retry;
    SleepFn sleep;  // empty: a real wait that cancellation interrupts
    exec::Executor* executor = &exec::Executor::shared();
  };

  Client(Endpoint endpoint, Options options);

  // POSTs body to path (after the prefix) and feeds the answer's events to
  // callbacks.onEvent. An event counts as delivered once accepted; after that
  // nothing is retried.
  Status streamEvents(const std::string& path, const std::string& body, const StreamCallbacks& callbacks,
                      const CancelToken& cancel);
  // POSTs body and returns the whole body of a 200 answer.
  Result<std::string> post(const std::string& path, const std::string& body, const DescribeStatus& describeStatus,
                           const CancelToken& cancel);

  const Endpoint& endpoint() const { return endpoint_; }

 private:
  struct Attempt;
  template <class Run>
  Status withRetries(const Run& run, const CancelToken& cancel, const RetryHook& onRetry);
  double jitter();

  Endpoint endpoint_;
  Options options_;
};

// Sleeps for delay or until cancel fires.
void cancellableSleep(std::chrono::milliseconds delay, const CancelToken& cancel);

}  // namespace lathe::http
