// One GET per hop through the HTTP core, on a fresh client pinned to the
// address checked for the hop's host (the name is still used for the Host
// header, SNI and certificate checks), or, when the person's proxy takes the
// hop, sent to the proxy by name once the host passed checkProxiedHost (the
// proxy resolves it). One deadline covers the whole page: its token stops a
// DNS wait or an exchange in whatever phase it is.
#include "tools/web/page_fetch.h"

#include <httplib.h>

#include <cctype>
#include <chrono>

#include "protocol/http/deadline.h"
#include "protocol/http/exchange.h"
#include "protocol/http/proxy.h"
#include "protocol/http/transfer.h"
#include "tools/web/address_policy.h"
#include "tools/web/web_url.h"

namespace lathe::tools::web {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr const char* kUserAgent = "Mozilla/5.0 (compatible; Lathe web_fetch)";
constexpr const char* kAccept =
    "text/html, application/xhtml+xml, text/markdown, text/plain;q=0.9, application/json;q=0.9, */*;q=0.5";

struct Hop {
  int status = 0;
  std::string location;
  std::string contentType;
  std::string body;
  bool truncated = false;
  bool unreachable = false;  // no connection: another address of the host may do
};

std::string mediaType(std::string value) {
  value = value.substr(0, value.find(';'));
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.pop_back();
  size_t start = 0;
  while (start < value.size() && std::isspace(static_cast<unsigned char>(value[start]))) ++start;
  value = value.substr(start);
  for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return value;
}

bool isRedirect(int status) { return status == 301 || status == 302 || status == 303 || status == 307 || status == 308; }

std::string seconds(milliseconds ms) {
  auto tenths = ms.count() / 100;
  return std::to_string(tenths / 10) + (tenths % 10 ? "." + std::to_string(tenths % 10) : "") + " s";
}

// What was under way when the deadline came, for the message.
std::string pendingPart(const WebUrl& url, const std::string& address, const http::Transfer& done) {
  std::string where = address.empty() || url.host == address ? url.host : url.host + " (" + address + ")";
  if (done.error == httplib::Error::ConnectionTimeout) return "connecting to " + where + " had not succeeded";
  if (done.head.status == 0) return "the server at " + where + " had not sent its complete headers";
  return "the body of " + url.text() + " was still arriving (" + std::to_string(done.bodyBytes) + " bytes so far)";
}

// One request to a checked address (empty: to the proxy, by name); the body
// is read only for a final answer. Errc::timeout's message says what was under way.
Result<Hop> getOnce(const WebUrl& url, const std::string& address, const WebFetchOptions& options,
                    const http::Deadline& deadline, const CancelToken& cancel) {
  // Socket timeouts as a second line, rounded up so that they fall after the deadline.
  auto left = std::chrono::duration_cast<milliseconds>(deadline.when() - Clock::now()) + milliseconds(5);
  if (deadline.expired()) return makeError(Errc::timeout, "connecting to " + url.host + " had not begun");
  const std::string origin = url.scheme + "://" + url.hostForUrl() + ":" + std::to_string(url.port);
  const http::PinnedAddress pin{url.host, address};
  auto client = http::openClient(origin, address.empty() ? nullptr : &pin);
  client->set_keep_alive(false);
  client->set_follow_location(false);
  client->set_url_encode(false);  // parseWebUrl left the target ready to send
  client->enable_server_certificate_verification(true);
  httplib::Request req;
  req.method = "GET";
  req.path = url.target;
  req.headers = {{"User-Agent", kUserAgent}, {"Accept", kAccept}};
  Hop hop;
  auto onHead = [&](const http::ResponseHead& head) {
    hop.status = head.status;
    hop.location = head.header("Location");
    hop.contentType = mediaType(head.header("Content-Type"));
    return head.status >= 200 && head.status < 300;  // only a success's body is read
  };
  auto onBody = [&](std::string_view bytes) {
    hop.body.append(bytes);
    return true;
  };
  http::TransferLimits limits{left, left, static_cast<size_t>(options.maxBodyBytes)};
  http::Transfer done = http::transfer(*client, std::move(req), limits, onHead, onBody, deadline.token());
  if (cancel.cancelled()) return makeError(Errc::cancelled, "Fetching " + url.text() + " was cancelled.");
  if (!done.answered() && deadline.expired()) return makeError(Errc::timeout, pendingPart(url, address, done));
  hop.truncated = done.capped;
  if (!done.answered()) {
    hop.unreachable = done.error == httplib::Error::Connection;
    if (hop.unreachable) return hop;
    return makeError(Errc::io, "Fetching " + url.text() + " failed: " + httplib::to_string(done.error) + ".");
  }
  return hop;
}

// The first checked address that takes the connection answers.
Result<Hop> getFromAny(const WebUrl& url, const http::Addresses& addresses, const WebFetchOptions& options,
                       const http::Deadline& deadline, const CancelToken& cancel) {
  for (const auto& address : addresses) {
    auto hop = getOnce(url, address, options, deadline, cancel);
    if (!hop || !hop->unreachable) return hop;
  }
  const bool proxied = addresses.size() == 1 && addresses[0].empty();
  return makeError(Errc::io, "Fetching " + url.text() + " failed: could not connect to " +
                                 (proxied ? "the proxy for " : "") + url.host + ".");
}

// Through the proxy: the host checked, and one "address", the name itself (getOnce sends it to the proxy).
Result<http::Addresses> proxiedTarget(http::Resolver& resolver, const std::string& host, const WebFetchOptions& options,
                                      const CancelToken& cancel) {
  if (auto checked = checkProxiedHost(resolver, host, options.allowPrivateHosts, cancel); !checked) return checked.error();
  return http::Addresses{""};
}

Error pastDeadline(const std::string& start, const WebFetchOptions& options, const std::string& pending) {
  return makeError(Errc::timeout,
                   "Fetching " + start + " did not finish within " + seconds(options.timeout) + ": " + pending + ".");
}

}  // namespace

Result<FetchedPage> fetchPage(const std::string& start, const WebFetchOptions& options, const CancelToken& cancel) {
  http::Deadline deadline(cancel, options.timeout);
  http::Resolver& resolver = options.resolver ? *options.resolver : *http::systemResolver();
  std::string current = start;
  for (int hops = 0;; ++hops) {
    auto url = parseWebUrl(current);
    if (!url) return url.error();
    const bool proxied = http::proxyFor(url->scheme, url->host, url->port).has_value();
    auto addresses = proxied ? proxiedTarget(resolver, url->host, options, deadline.token())
                             : resolveCheckedAddresses(resolver, url->host, options.allowPrivateHosts, deadline.token());
    if (!addresses) {
      if (cancel.cancelled()) return makeError(Errc::cancelled, "Fetching " + url->text() + " was cancelled.");
      if (deadline.expired()) return pastDeadline(start, options, "looking up the address of " + url->host + " got no answer");
      std::string via = hops ? " (redirected from " + start + ")" : "";
      std::string what = addresses.error().code == Errc::forbidden ? " was refused. " : " failed. ";
      return makeError(addresses.error().code, "Fetching " + url->text() + via + what + addresses.error().message);
    }
    auto hop = getFromAny(*url, *addresses, options, deadline, cancel);
    if (!hop && hop.error().code == Errc::timeout) return pastDeadline(start, options, hop.error().message);
    if (!hop) return hop.error();
    if (isRedirect(hop->status) && !hop->location.empty()) {
      if (hops >= options.maxRedirects) {
        return makeError(Errc::http, "Fetching " + start + " was redirected more than " +
                                         std::to_string(options.maxRedirects) + " times.");
      }
      current = hop->location.starts_with("//") ? url->scheme + ":" + hop->location
                                                : http::resolveUrl(url->text(), hop->location);
      continue;
    }
    if (hop->status < 200 || hop->status >= 300) {
      return makeError(Errc::http, "Fetching " + url->text() + " failed: HTTP status " + std::to_string(hop->status) + ".");
    }
    return FetchedPage{url->text(), std::move(hop->contentType), std::move(hop->body), hop->truncated, hops};
  }
}

}  // namespace lathe::tools::web
