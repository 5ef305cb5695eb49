// One GET per hop on a fresh cpp-httplib client whose host is pinned to the
// address checked for it (set_hostname_addr_map): the name is still used for
// the Host header, SNI and certificate checks.
#include "tools/web/page_fetch.h"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <memory>
#include <mutex>

#include "protocol/http/exchange.h"
#include "protocol/http/proxy.h"
#include "tools/web/address_policy.h"
#include "tools/web/web_url.h"

namespace lathe::tools::web {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kUserAgent = "Mozilla/5.0 (compatible; Lathe web_fetch)";
constexpr const char* kAccept =
    "text/html, application/xhtml+xml, text/markdown, text/plain;q=0.9, application/json;q=0.9, */*;q=0.5";

struct StopSwitch {
  std::mutex mutex;
  httplib::Client* client = nullptr;
};

struct Hop {
  int status = 0;
  std::string location;
  std::string contentType;
  std::string body;
  bool truncated = false;
  bool timedOut = false;
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

std::string seconds(std::chrono::milliseconds ms) {
  auto tenths = ms.count() / 100;
  return std::to_string(tenths / 10) + (tenths % 10 ? "." + std::to_string(tenths % 10) : "") + " s";
}

// One request to a checked address; the body is read only for a final answer.
Result<Hop> getOnce(const WebUrl& url, const std::string& address, const WebFetchOptions& options,
                    Clock::time_point deadline, const CancelToken& cancel) {
  // Rounded up, so that a socket timeout falls after the deadline, not a hair before it.
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()) +
              std::chrono::milliseconds(5);
  if (Clock::now() >= deadline) return makeError(Errc::timeout, "");
  httplib::Client client(url.scheme + "://" + url.hostForUrl() + ":" + std::to_string(url.port));
  client.set_hostname_addr_map({{url.host, address}});
  // Through the person's proxy, if any; the address was checked all the same.
  http::useProxy(client, url.scheme + "://" + url.hostForUrl() + ":" + std::to_string(url.port));
  client.set_connection_timeout(left);
  client.set_read_timeout(left);
  client.set_write_timeout(left);
  client.set_keep_alive(false);
  client.set_follow_location(false);
  client.set_url_encode(false);  // parseWebUrl left the target ready to send
  client.enable_server_certificate_verification(true);
  httplib::Headers headers{{"User-Agent", kUserAgent}, {"Accept", kAccept}};
  Hop hop;
  auto onResponse = [&](const httplib::Response& res) {
    hop.status = res.status;
    hop.location = res.get_header_value("Location");
    hop.contentType = mediaType(res.get_header_value("Content-Type"));
    return !cancel.cancelled() && res.status >= 200 && res.status < 300;  // only a success's body is read
  };
  auto onBody = [&](const char* data, size_t size) {
    if (cancel.cancelled()) return false;
    if (Clock::now() >= deadline) {
      hop.timedOut = true;
      return false;
    }
    size_t room = static_cast<size_t>(options.maxBodyBytes) - hop.body.size();
    hop.body.append(data, std::min(size, room));
    if (size >= room) {
      hop.truncated = true;
      return false;  // stop reading: the rest is never downloaded
    }
    return true;
  };
  auto stopSwitch = std::make_shared<StopSwitch>();
  stopSwitch->client = &client;
  auto registration = cancel.onCancel([stopSwitch] {
    std::lock_guard lock(stopSwitch->mutex);
    if (stopSwitch->client) stopSwitch->client->stop();
  });
  auto result = cancel.cancelled() ? httplib::Result{nullptr, httplib::Error::Canceled}
                                   : client.Get(url.target, headers, onResponse, onBody);
  {
    std::lock_guard lock(stopSwitch->mutex);
    stopSwitch->client = nullptr;
  }
  if (cancel.cancelled()) return makeError(Errc::cancelled, "Fetching " + url.text() + " was cancelled.");
  if (hop.timedOut || (!result && Clock::now() >= deadline)) return makeError(Errc::timeout, "");
  bool stoppedByUs = result.error() == httplib::Error::Canceled && hop.status != 0;
  if (!result && !stoppedByUs) {
    hop.unreachable = result.error() == httplib::Error::Connection;
    if (hop.unreachable) return hop;
    return makeError(Errc::io, "Fetching " + url.text() + " failed: " + httplib::to_string(result.error()) + ".");
  }
  return hop;
}

// The first checked address that takes the connection answers.
Result<Hop> getFromAny(const WebUrl& url, const std::vector<std::string>& addresses, const WebFetchOptions& options,
                       Clock::time_point deadline, const CancelToken& cancel) {
  for (const auto& address : addresses) {
    auto hop = getOnce(url, address, options, deadline, cancel);
    if (!hop || !hop->unreachable) return hop;
  }
  return makeError(Errc::io, "Fetching " + url.text() + " failed: could not connect to " + url.host + ".");
}

}  // namespace

Result<FetchedPage> fetchPage(const std::string& start, const WebFetchOptions& options, const CancelToken& cancel) {
  const auto deadline = Clock::now() + options.timeout;
  std::string current = start;
  for (int hops = 0;; ++hops) {
    auto url = parseWebUrl(current);
    if (!url) return url.error();
    auto addresses = resolveCheckedAddresses(url->host, options.allowPrivateHosts);
    if (!addresses) {
      std::string via = hops ? " (redirected from " + start + ")" : "";
      std::string what = addresses.error().code == Errc::forbidden ? " was refused. " : " failed. ";
      return makeError(addresses.error().code, "Fetching " + url->text() + via + what + addresses.error().message);
    }
    auto hop = getFromAny(*url, *addresses, options, deadline, cancel);
    if (!hop && hop.error().code == Errc::timeout) {
      return makeError(Errc::timeout, "Fetching " + start + " did not finish within " + seconds(options.timeout) + ".");
    }
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
