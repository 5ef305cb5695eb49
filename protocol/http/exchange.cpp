// Plain HTTP exchanges on cpp-httplib; a cancel callback stops the client
// through a switch the exchange clears before the client goes away.
#include "protocol/http/exchange.h"

#include "protocol/http/proxy.h"

#include <httplib.h>

#include <cctype>
#include <memory>
#include <mutex>

namespace lathe::http {
namespace {

bool sameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

struct Split {
  std::string origin;
  std::string target;  // path and query
};

Result<Split> split(const std::string& url) {
  size_t sep = url.find("://");
  if (sep == std::string::npos || (url.compare(0, sep, "http") != 0 && url.compare(0, sep, "https") != 0)) {
    return makeError(Errc::invalid_params, "\"" + url + "\" is not an http:// or https:// URL");
  }
  size_t slash = url.find('/', sep + 3);
  Split out;
  out.origin = url.substr(0, slash);
  out.target = slash == std::string::npos ? "/" : url.substr(slash);
  if (size_t hash = out.target.find('#'); hash != std::string::npos) out.target.resize(hash);
  if (out.origin.size() <= sep + 3) return makeError(Errc::invalid_params, "\"" + url + "\" has no host");
  return out;
}

struct StopSwitch {
  std::mutex mutex;
  httplib::Client* client = nullptr;
};

}  // namespace

std::string ResponseHead::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (sameName(key, name)) return value;
  }
  return "";
}

std::string resolveUrl(const std::string& base, const std::string& reference) {
  if (reference.find("://") != std::string::npos) return reference;
  auto parts = split(base);
  if (!parts) return reference;
  if (!reference.empty() && reference.front() == '/') return parts->origin + reference;
  std::string path = parts->target.substr(0, parts->target.find('?'));
  return parts->origin + path.substr(0, path.rfind('/') + 1) + reference;
}

Result<ResponseHead> exchange(const RawRequest& request, const std::function<bool(const ResponseHead&)>& onHead,
                              const std::function<bool(std::string_view)>& onBody, const CancelToken& cancel) {
  auto parts = split(request.url);
  if (!parts) return parts.error();
  httplib::Client client(parts->origin);
  useProxy(client, parts->origin);
  client.set_connection_timeout(request.connectTimeout);
  client.set_read_timeout(request.readTimeout);
  client.set_write_timeout(request.readTimeout);
  client.set_keep_alive(false);
  httplib::Request req;
  req.method = request.method;
  req.path = parts->target;
  req.headers.emplace("User-Agent", "lathe");
  for (const auto& [name, value] : request.headers) req.headers.emplace(name, value);
  req.body = request.body;
  ResponseHead head;
  bool stopped = false;
  req.response_handler = [&](const httplib::Response& res) {
    head.status = res.status;
    for (const auto& [name, value] : res.headers) head.headers.emplace_back(name, value);
    if (cancel.cancelled()) return false;
    stopped = onHead && !onHead(head);
    return !stopped;
  };
  req.content_receiver = [&](const char* data, size_t size, uint64_t, uint64_t) {
    if (cancel.cancelled()) return false;
    stopped = onBody && !onBody(std::string_view(data, size));
    return !stopped;
  };
  auto stopSwitch = std::make_shared<StopSwitch>();
  stopSwitch->client = &client;
  auto registration = cancel.onCancel([stopSwitch] {
    std::lock_guard lock(stopSwitch->mutex);
    if (stopSwitch->client) stopSwitch->client->stop();
  });
  httplib::Response res;
  httplib::Error error = httplib::Error::Success;
  bool ok = !cancel.cancelled() && client.send(req, res, error);
  {
    std::lock_guard lock(stopSwitch->mutex);
    stopSwitch->client = nullptr;
  }
  if (cancel.cancelled()) return makeError(Errc::cancelled, request.method + " " + request.url + " was cancelled");
  if (ok || stopped) return head;
  if (error == httplib::Error::Canceled && head.status != 0) return head;
  return makeError(Errc::io, request.method + " " + request.url + " failed: " + httplib::to_string(error));
}

}  // namespace lathe::http
