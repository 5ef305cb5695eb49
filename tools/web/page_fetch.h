// Fetching one web page for web_fetch: GET over HTTP or HTTPS (cpp-httplib
// with OpenSSL, through protocol/http's core), redirects followed here up to
// a bound with every hop's host resolved (options.resolver) and checked
// (address_policy.h) and the connection made to the checked address, one
// deadline for the whole page (DNS lookups, connecting, headers however slowly
// they come, the body), and reading stopped past a size cap. Blocking; any
// thread; cancellation stops it at once.
#pragma once

#include <string>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "tools/core/tool_context.h"

namespace lathe::tools::web {

struct FetchedPage {
  std::string url;          // after redirects
  std::string contentType;  // media type, lower-case, without parameters; "" when not sent
  std::string body;
  bool truncated = false;   // reading stopped at maxBodyBytes
  int redirects = 0;
};

// Errc::forbidden for a refused address (the message names the setting),
// Errc::timeout past the deadline (the message says what was under way),
// Errc::http for an error status,
// Errc::io for a connection that failed, Errc::cancelled.
Result<FetchedPage> fetchPage(const std::string& url, const WebFetchOptions& options, const CancelToken& cancel);

}  // namespace lathe::tools::web
