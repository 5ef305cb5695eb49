// Plain HTTP exchanges: one fresh connection each, through the HTTP core.
#include "protocol/http/exchange.h"

#include <httplib.h>

namespace lathe::http {
namespace {

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

}  // namespace

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
  auto client = openClient(parts->origin);
  client->set_keep_alive(false);
  httplib::Request req;
  req.method = request.method;
  req.path = parts->target;
  req.headers.emplace("User-Agent", "lathe");
  for (const auto& [name, value] : request.headers) req.headers.emplace(name, value);
  req.body = request.body;
  Transfer done = transfer(*client, std::move(req), {request.connectTimeout, request.readTimeout}, onHead, onBody, cancel);
  if (done.cancelled) return makeError(Errc::cancelled, request.method + " " + request.url + " was cancelled");
  if (done.answered()) return done.head;
  return makeError(Errc::io, request.method + " " + request.url + " failed: " + httplib::to_string(done.error));
}

}  // namespace lathe::http
