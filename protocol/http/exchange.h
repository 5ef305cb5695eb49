// One plain HTTP exchange of any method (GET, POST, DELETE) with the answer's
// status and headers first and its body streamed after, stopped at once by
// cancellation or by a callback. For protocols that need more of HTTP than
// the model client does (MCP's Streamable HTTP and SSE transports).
// Blocking: call it on a worker thread; several may run at once.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "protocol/http/transfer.h"

namespace lathe::http {

struct RawRequest {
  std::string method = "POST";
  std::string url;  // absolute: http(s)://host[:port]/path[?query]
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  // sent when not empty
  std::chrono::milliseconds connectTimeout{10'000};
  std::chrono::milliseconds readTimeout{300'000};  // silence allowed (transfer.h: a watchdog timer)
};

// Sends the request. onHead sees the status and headers, onBody each piece of
// the body; either may return false to stop (that is not an error). Fails
// when the server cannot be reached or the connection breaks (Errc::io), or
// on cancellation (Errc::cancelled).
Result<ResponseHead> exchange(const RawRequest& request, const std::function<bool(const ResponseHead&)>& onHead,
                              const std::function<bool(std::string_view)>& onBody, const CancelToken& cancel);

// `reference` resolved against `base` (an absolute URL): absolute URLs stay,
// "/path" keeps base's origin, anything else replaces base's last segment.
std::string resolveUrl(const std::string& base, const std::string& reference);

}  // namespace lathe::http
