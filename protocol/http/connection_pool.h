// Keep-alive connections to model servers, shared by every request of the
// process: a request borrows an idle connection to its origin (or opens a
// new one) and gives it back when its exchange ended cleanly, so sequential
// requests to one endpoint reuse one connection (one TLS handshake) and
// requests running at once each get their own. Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace httplib {
class Client;
}

namespace lathe::http {

class ConnectionPool {
 public:
  // The pool every http::Client uses.
  static ConnectionPool& shared();

  ConnectionPool();
  ~ConnectionPool();
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  struct Borrowed {
    std::unique_ptr<httplib::Client> client;
    bool reused = false;  // it had been used before: its connection may have been closed by the server
  };
  // An idle connection to origin ("https://host:port"), else a new client.
  Borrowed borrow(const std::string& origin);
  // Takes a client back after an exchange that ended cleanly (a broken or
  // cancelled one is dropped instead); at most kMaxIdle wait per origin.
  void giveBack(const std::string& origin, std::unique_ptr<httplib::Client> client);
  // Idle connections to origin (for tests).
  size_t idle(const std::string& origin) const;
  // A client for origin that keeps its connection alive, without Nagle's delay.
  static std::unique_ptr<httplib::Client> newClient(const std::string& origin);

  static constexpr size_t kMaxIdle = 4;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<std::unique_ptr<httplib::Client>>> idle_;
};

}  // namespace lathe::http
