// Cancellation stops the client from the cancelling thread (httplib shuts the
// socket down, which wakes a blocked read); the exchange clears the switch
// under its mutex before the client can go away.
#include "protocol/http/transfer.h"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <mutex>

#include "protocol/http/proxy.h"

namespace lathe::http {
namespace {

using Clock = std::chrono::steady_clock;

bool sameName(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  });
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

std::unique_ptr<httplib::Client> openClient(const std::string& origin, const PinnedAddress* pin) {
  auto client = std::make_unique<httplib::Client>(origin);
  if (pin) client->set_hostname_addr_map({{pin->host, pin->address}});
  useProxy(*client, origin);
  return client;
}

Transfer transfer(httplib::Client& client, httplib::Request request, const TransferLimits& limits,
                  const std::function<bool(const ResponseHead&)>& onHead,
                  const std::function<bool(std::string_view)>& onBody, const CancelToken& cancel) {
  Transfer out;
  out.lastActivity = Clock::now();
  client.set_connection_timeout(limits.connectTimeout);
  client.set_read_timeout(limits.readTimeout);
  client.set_write_timeout(limits.readTimeout);
  request.response_handler = [&](const httplib::Response& res) {
    out.head.status = res.status;
    for (const auto& [name, value] : res.headers) out.head.headers.emplace_back(name, value);
    out.lastActivity = Clock::now();
    if (cancel.cancelled()) return false;
    out.stopped = onHead && !onHead(out.head);
    return !out.stopped;
  };
  request.content_receiver = [&](const char* data, size_t size, uint64_t, uint64_t) {
    if (cancel.cancelled()) return false;
    out.lastActivity = Clock::now();
    size_t room = limits.maxBodyBytes - out.bodyBytes;
    out.capped = size > room;
    size = std::min(size, room);
    out.bodyBytes += size;
    out.stopped = size > 0 && onBody && !onBody(std::string_view(data, size));
    return !out.stopped && !out.capped;  // past the cap the rest is never downloaded
  };
  auto stopSwitch = std::make_shared<StopSwitch>();
  stopSwitch->client = &client;
  auto registration = cancel.onCancel([stopSwitch] {
    std::lock_guard lock(stopSwitch->mutex);
    if (stopSwitch->client) stopSwitch->client->stop();
  });
  httplib::Response res;
  if (cancel.cancelled()) {
    out.error = httplib::Error::Canceled;
  } else {
    out.complete = client.send(request, res, out.error);
  }
  {
    std::lock_guard lock(stopSwitch->mutex);
    stopSwitch->client = nullptr;
  }
  out.cancelled = cancel.cancelled();
  return out;
}

}  // namespace lathe::http
