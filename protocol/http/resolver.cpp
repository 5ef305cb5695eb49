// getaddrinfo cannot be interrupted: a lookup runs as blocking work on the
// executor, and the waiter shares its answer's slot with it, so a waiter that
// gave up never waits for the lookup and the lookup never writes into freed
// memory.
#include "protocol/http/resolver.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>

#include "protocol/exec/executor.h"

namespace lathe::http {
namespace {

Result<Addresses> getAddresses(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (int rc = getaddrinfo(host.c_str(), nullptr, &hints, &found); rc != 0 || !found) {
    return makeError(Errc::io, "Could not resolve " + host + ": " + gai_strerror(rc));
  }
  Addresses addresses;
  for (addrinfo* it = found; it; it = it->ai_next) {
    char text[INET6_ADDRSTRLEN] = {};
    const void* raw = it->ai_family == AF_INET
                          ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(it->ai_addr)->sin_addr)
                          : static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(it->ai_addr)->sin6_addr);
    if ((it->ai_family == AF_INET || it->ai_family == AF_INET6) && inet_ntop(it->ai_family, raw, text, sizeof text)) {
      if (std::find(addresses.begin(), addresses.end(), text) == addresses.end()) addresses.emplace_back(text);
    }
  }
  freeaddrinfo(found);
  if (addresses.empty()) return makeError(Errc::io, "Could not resolve " + host + ": no IP address");
  return addresses;
}

class SystemResolver final : public Resolver {
 public:
  void lookup(const std::string& host, Answer answer) override {
    if (isIpLiteral(host)) return answer(Addresses{host});
    exec::Executor::shared().post([host, answer] { answer(getAddresses(host)); });
  }
};

// Where an answer lands; shared by the waiter and the lookup.
struct Slot {
  std::mutex mutex;
  std::condition_variable changed;
  std::optional<Result<Addresses>> answer;
  bool cancelled = false;
};

}  // namespace

bool isIpLiteral(const std::string& text) {
  unsigned char bytes[16];
  return inet_pton(AF_INET, text.c_str(), bytes) == 1 || inet_pton(AF_INET6, text.c_str(), bytes) == 1;
}

std::shared_ptr<Resolver> systemResolver() {
  static const auto resolver = std::make_shared<SystemResolver>();
  return resolver;
}

Result<Addresses> resolveHost(Resolver& resolver, const std::string& host, const CancelToken& cancel) {
  auto slot = std::make_shared<Slot>();
  auto registration = cancel.onCancel([slot] {
    std::lock_guard lock(slot->mutex);
    slot->cancelled = true;
    slot->changed.notify_all();
  });
  resolver.lookup(host, [slot](Result<Addresses> answer) {
    std::lock_guard lock(slot->mutex);
    if (!slot->answer) slot->answer = std::move(answer);
    slot->changed.notify_all();
  });
  std::unique_lock lock(slot->mutex);
  slot->changed.wait(lock, [&] { return slot->answer.has_value() || slot->cancelled; });
  if (slot->cancelled) return makeError(Errc::cancelled, "Looking up " + host + " was stopped before it answered.");
  return std::move(*slot->answer);
}

}  // namespace lathe::http
