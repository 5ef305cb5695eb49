// Cancellation stops the client from the cancelling thread (httplib shuts the
// socket down, which wakes a blocked read); the exchange clears the switch
// under its mutex before the client can go away. The silence watchdog cancels
// a child of the caller's token, so it stops the exchange the same way.
#include "protocol/http/transfer.h"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <mutex>

#include "protocol/http/proxy.h"
#include "protocol/http/silence_watchdog.h"

namespace lathe::http {
namespace {

bool sameName(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  });
}

struct StopSwitch {
  std::mutex mutex;
  httplib::Client* client = nullptr;
};

// httplib always applies socket timeouts (5 s unless told). They are set well
// past the watchdog so that it alone decides when silence ends an exchange
// (and how that reads); the socket's only ends one if the watchdog never ran.
std::chrono::milliseconds backstop(std::chrono::milliseconds silence) {
  return silence + std::max(silence, std::chrono::milliseconds(30'000));
}

// Hands a piece of the body on, up to the cap; false to stop reading.
bool takeBody(Transfer& out, size_t maxBodyBytes, const std::function<bool(std::string_view)>& onBody,
              std::string_view piece) {
  size_t room = maxBodyBytes - out.bodyBytes;
  out.capped = piece.size() > room;
  piece = piece.substr(0, room);
  out.bodyBytes += piece.size();
  out.stopped = !piece.empty() && onBody && !onBody(piece);
  return !out.stopped && !out.capped;  // past the cap the rest is never downloaded
}

// Sends request, stoppable through `stop` from any thread until it returns.
bool sendStoppable(httplib::Client& client, httplib::Request& request, httplib::Error& error,
                   const CancelToken& stop) {
  auto stopSwitch = std::make_shared<StopSwitch>();
  stopSwitch->client = &client;
  auto registration = stop.onCancel([stopSwitch] {
    std::lock_guard lock(stopSwitch->mutex);
    if (stopSwitch->client) stopSwitch->client->stop();
  });
  httplib::Response res;
  bool complete = client.send(request, res, error);
  std::lock_guard lock(stopSwitch->mutex);
  stopSwitch->client = nullptr;
  return complete;
}

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
  client.set_connection_timeout(limits.connectTimeout);
  client.set_read_timeout(backstop(limits.readTimeout));
  client.set_write_timeout(backstop(limits.readTimeout));
  const CancelToken stop = cancel.child();
  SilenceWatchdog watchdog(*limits.executor, limits.readTimeout, stop);
  request.response_handler = [&](const httplib::Response& res) {
    watchdog.heard();
    out.head.status = res.status;
    for (const auto& [name, value] : res.headers) out.head.headers.emplace_back(name, value);
    if (stop.cancelled()) return false;
    out.stopped = onHead && !onHead(out.head);
    watchdog.listen();
    return !out.stopped;
  };
  request.content_receiver = [&](const char* data, size_t size, uint64_t, uint64_t) {
    if (stop.cancelled()) return false;
    watchdog.heard();
    bool more = takeBody(out, limits.maxBodyBytes, onBody, std::string_view(data, size));
    watchdog.listen();
    return more;
  };
  if (stop.cancelled()) {
    out.error = httplib::Error::Canceled;
  } else {
    out.complete = sendStoppable(client, request, out.error, stop);
  }
  out.cancelled = cancel.cancelled();
  out.silent = watchdog.fired() && !out.cancelled && !out.answered();
  if (out.silent) out.error = httplib::Error::Read;  // as a socket's read timeout said it before
  return out;
}

}  // namespace lathe::http
