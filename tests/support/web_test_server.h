// A small web site on 127.0.0.1 for web_fetch tests: an HTML page with
// scripts, styles, a table and links; a redirect chain; redirects to private
// and metadata addresses; a page that answers too late; a 10 MB page; plain
// text, JSON and an image. Records the paths asked for. Public methods are
// thread-safe; requests are served on cpp-httplib's threads.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "protocol/base/result.h"

namespace httplib {
class Server;
}

namespace lathe::testing {

class WebTestServer {
 public:
  static constexpr int64_t kBigPageBytes = 10 * 1024 * 1024;

  WebTestServer();
  ~WebTestServer();
  WebTestServer(const WebTestServer&) = delete;
  WebTestServer& operator=(const WebTestServer&) = delete;

  Status start();
  void stop();  // wakes /slow at once
  int port() const { return port_; }
  std::string url(const std::string& path) const;  // http://127.0.0.1:PORT/path
  std::vector<std::string> paths() const;          // asked for, in order
  int64_t bigBytesSent() const { return bigBytesSent_.load(); }  // of /big, accepted by the socket
  // True once a request for /slow is being held (false after `bound`).
  bool waitForSlowRequest(std::chrono::milliseconds bound);

 private:
  std::unique_ptr<httplib::Server> server_;
  std::thread listener_;
  int port_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable stopping_;
  bool stopped_ = false;
  std::condition_variable slowArrived_;
  int slowHeld_ = 0;
  std::vector<std::string> paths_;
  std::atomic<int64_t> bigBytesSent_{0};
};

// The body of /page.html, for tests that compare.
extern const char* const kWebTestPage;

}  // namespace lathe::testing
