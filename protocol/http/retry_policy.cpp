// The retry decision.
#include "protocol/http/retry_policy.h"

#include <algorithm>
#include <ctime>
#include <iomanip>
#include <locale>
#include <sstream>

namespace lathe::http {

using std::chrono::milliseconds;

namespace {

milliseconds backoff(const RetryPolicy& policy, int failures, double jitter) {
  double base = static_cast<double>(policy.initialBackoff.count());
  const double cap = static_cast<double>(policy.maxBackoff.count());
  for (int i = 1; i < failures && base < cap; ++i) base *= 2;
  base = std::min(base, cap);
  return std::min(milliseconds(static_cast<int64_t>(base * jitter)), policy.maxBackoff);
}

}  // namespace

RetryDecision decideRetry(const RetryPolicy& policy, int attempt, bool retryable,
                          std::optional<milliseconds> retryAfter, double jitter) {
  if (!retryable) return {};
  if (retryAfter && *retryAfter > policy.maxRetryAfter) {
    return {false, milliseconds(0), " (the API asks to wait " + inSeconds(*retryAfter) + " before trying again)"};
  }
  if (attempt >= std::max(1, policy.maxAttempts)) {
    if (policy.maxAttempts <= 1) return {};
    return {false, milliseconds(0), " (gave up after " + std::to_string(attempt) + " attempts)"};
  }
  return {true, retryAfter ? *retryAfter : backoff(policy, attempt, jitter), {}};
}

bool retryableStatus(int status) { return status == 429 || status >= 500; }

std::optional<milliseconds> parseRetryAfter(std::string_view value) {
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    if (value.size() > 9) return milliseconds(std::chrono::hours(24 * 365));
    return std::chrono::seconds(std::stol(std::string(value)));
  }
  std::tm tm{};
  std::istringstream in{std::string(value)};
  in.imbue(std::locale::classic());
  in >> std::get_time(&tm, "%a, %d %b %Y %H:%M:%S");
  if (in.fail()) return std::nullopt;
  auto at = std::chrono::system_clock::from_time_t(timegm(&tm));
  auto delta = std::chrono::duration_cast<milliseconds>(at - std::chrono::system_clock::now());
  return std::max(delta, milliseconds(0));
}

std::string inSeconds(milliseconds d) {
  auto s = (d.count() + 999) / 1000;
  return std::to_string(s) + (s == 1 ? " second" : " seconds");
}

}  // namespace lathe::http
