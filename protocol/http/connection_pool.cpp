// The idle connections, newest last: a borrower takes the one used most
// recently, so sequential requests keep to one connection.
#include "protocol/http/connection_pool.h"

#include <httplib.h>

#include "protocol/http/transfer.h"

namespace lathe::http {

std::unique_ptr<httplib::Client> ConnectionPool::newClient(const std::string& origin) {
  auto client = openClient(origin);  // the pool is keyed by origin, and the proxy is the process's
  client->set_keep_alive(true);
  // A request goes out in several writes (headers, body): on a kept-alive
  // connection Nagle's algorithm would hold the later ones for the server's
  // delayed ACK, tens of milliseconds a request.
  client->set_tcp_nodelay(true);
  return client;
}

ConnectionPool& ConnectionPool::shared() {
  // Never destroyed: a request may still hold a borrowed client while the process exits.
  static ConnectionPool* pool = new ConnectionPool;
  return *pool;
}

ConnectionPool::ConnectionPool() = default;
ConnectionPool::~ConnectionPool() = default;

ConnectionPool::Borrowed ConnectionPool::borrow(const std::string& origin) {
  {
    std::lock_guard lock(mutex_);
    auto it = idle_.find(origin);
    if (it != idle_.end() && !it->second.empty()) {
      Borrowed out{std::move(it->second.back()), true};
      it->second.pop_back();
      return out;
    }
  }
  return {newClient(origin), false};
}

void ConnectionPool::giveBack(const std::string& origin, std::unique_ptr<httplib::Client> client) {
  std::unique_ptr<httplib::Client> surplus;  // closed outside the lock
  std::lock_guard lock(mutex_);
  auto& idle = idle_[origin];
  if (idle.size() >= kMaxIdle) {
    surplus = std::move(idle.front());
    idle.erase(idle.begin());
  }
  idle.push_back(std::move(client));
}

size_t ConnectionPool::idle(const std::string& origin) const {
  std::lock_guard lock(mutex_);
  auto it = idle_.find(origin);
  return it == idle_.end() ? 0 : it->second.size();
}

}  // namespace lathe::http
