// The HTTP core under the model client, MCP's HTTP transports and web_fetch:
// a cpp-httplib client for an origin (through the person's proxy, optionally
// pinned to one checked address), and one exchange on it that a cancel token
// (the person's, or a deadline's) stops at once from the cancelling thread,
// whatever the exchange waits for, with the body read only up to a cap. The
// silence allowed is a watchdog timer on the executor that stops the exchange
// the same way (silence_watchdog.h).
// Blocking; any thread; one exchange per client at a time.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/exec/executor.h"

namespace httplib {
class Client;
struct Request;
enum class Error;
}  // namespace httplib

namespace lathe::http {

struct ResponseHead {
  int status = 0;  // 0: no answer came
  std::vector<std::pair<std::string, std::string>> headers;
  // The first header of that name (case-insensitive), or "".
  std::string header(std::string_view name) const;
};

// Connect to `address` whatever `host` resolves to; the name still goes in
// the Host header, SNI and certificate checks.
struct PinnedAddress {
  std::string host;
  std::string address;
};

// A client for origin ("scheme://host[:port]"), through the proxy the
// environment names for it, if any (the proxy is the person's choice: a pin
// then applies to nothing, and callers have checked the target all the same).
std::unique_ptr<httplib::Client> openClient(const std::string& origin, const PinnedAddress* pin = nullptr);

struct TransferLimits {
  std::chrono::milliseconds connectTimeout{10'000};
  // Silence allowed from the start to the headers, and then between pieces of the body.
  std::chrono::milliseconds readTimeout{300'000};
  size_t maxBodyBytes = std::numeric_limits<size_t>::max();  // given to onBody; reading stops past it
  exec::Executor* executor = &exec::Executor::shared();    // runs the silence watchdog
};

struct Transfer {
  ResponseHead head;
  httplib::Error error{};  // Success, or why the exchange failed or stopped
  bool complete = false;   // the whole answer was read
  bool stopped = false;    // onHead or onBody asked to stop (not an error)
  bool capped = false;     // the body is longer than maxBodyBytes: reading stopped there
  bool cancelled = false;  // the token was cancelled
  bool silent = false;     // the server said nothing for readTimeout: stopped (error is Read)
  size_t bodyBytes = 0;    // given to onBody

  // The answer came and was read as far as the caller (or the cap) wanted.
  bool answered() const { return complete || stopped || capped; }
};

// Sends request on client: onHead sees the status and headers, onBody each
// piece of the body (up to the cap); either may return false to stop.
Transfer transfer(httplib::Client& client, httplib::Request request, const TransferLimits& limits,
                  const std::function<bool(const ResponseHead&)>& onHead,
                  const std::function<bool(std::string_view)>& onBody, const CancelToken& cancel);

}  // namespace lathe::http
