// A forward proxy on 127.0.0.1 for tests, spoken to in plain HTTP or over TLS
// (with testCertificates()): absolute-form requests (http:// targets) and
// CONNECT tunnels (https:// targets) go to the address `routes` gives the
// target's host ("docs.invalid" -> "127.0.0.1:8080"); an unrouted host gets
// 502. Every request line and Proxy-Authorization is recorded. One thread per
// connection; stopped and joined by the destructor. Test-only.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace lathe::testing {

class TestProxy {
 public:
  struct Options {
    std::map<std::string, std::string> routes;
    bool tls = false;  // TLS to the proxy itself
  };

  explicit TestProxy(Options options);
  ~TestProxy();
  TestProxy(const TestProxy&) = delete;
  TestProxy& operator=(const TestProxy&) = delete;

  int port() const { return port_; }
  std::string url() const;  // http(s)://127.0.0.1:PORT
  // "GET http://docs.invalid/x", "CONNECT model.invalid:443", in order.
  std::vector<std::string> requestLines() const;
  std::vector<std::string> authorizations() const;
  int tlsHandshakes() const { return handshakes_.load(); }

 private:
  void acceptLoop();
  void serve(int client);

  Options options_;
  int listener_ = -1;
  int port_ = 0;
  int wake_[2] = {-1, -1};  // written to stop the accept loop
  void* context_ = nullptr;  // SSL_CTX when tls
  std::atomic<int> handshakes_{0};
  mutable std::mutex mutex_;
  std::vector<std::string> lines_;
  std::vector<std::string> authorizations_;
  std::vector<std::thread> connections_;
  std::vector<int> open_;  // client sockets, shut down on stop
  std::thread acceptor_;
};

}  // namespace lathe::testing
