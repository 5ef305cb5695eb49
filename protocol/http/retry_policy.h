// When to try an HTTP request again: transient failures (429, 5xx, a broken
// connection before anything was delivered) are retried with exponential
// backoff and jitter, honouring the server's Retry-After. A pure function.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace lathe::http {

struct RetryPolicy {
  int maxAttempts = 5;
  std::chrono::milliseconds initialBackoff{1'000};
  std::chrono::milliseconds maxBackoff{30'000};
  std::chrono::milliseconds maxRetryAfter{60'000};  // a longer Retry-After ends the call
  // Total silence (no byte at all) tolerated across attempts; 0: one read timeout.
  std::chrono::milliseconds maxSilence{0};
};

struct RetryDecision {
  bool retry = false;
  std::chrono::milliseconds delay{0};
  std::string note;  // when giving up: why, to append to the error
};

// After failed attempt number `attempt` (1-based). jitter is in [0.75, 1.25].
RetryDecision decideRetry(const RetryPolicy& policy, int attempt, bool retryable,
                          std::optional<std::chrono::milliseconds> retryAfter, double jitter);

// 429 and 5xx are worth another try.
bool retryableStatus(int status);

// Retry-After: delta-seconds or an HTTP date (relative to now).
std::optional<std::chrono::milliseconds> parseRetryAfter(std::string_view value);

// "1 second", "30 seconds".
std::string inSeconds(std::chrono::milliseconds d);

}  // namespace lathe::http
