// A TCP server on 127.0.0.1 for deadline tests: it answers each connection
// (one at a time) with an HTTP response whose status line and headers arrive
// one byte at a time, a pause between bytes, and only then a short body, so
// that a client whose read timeout is per read never times out on it while
// the whole answer takes far longer than a page's deadline. Public methods
// are thread-safe; connections are served on the server's own thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "protocol/base/result.h"

namespace lathe::testing {

class TrickleServer {
 public:
  static constexpr const char* kBody = "finally!";

  // headerBytes: how long the headers are (the status line included).
  TrickleServer(std::chrono::milliseconds pause, size_t headerBytes);
  ~TrickleServer();
  TrickleServer(const TrickleServer&) = delete;
  TrickleServer& operator=(const TrickleServer&) = delete;

  Status start();
  void stop();  // ends a trickle at once
  std::string url(const std::string& path) const;  // http://127.0.0.1:PORT/path
  int connections() const;  // accepted so far

 private:
  void serve();
  void answer(int fd);

  const std::chrono::milliseconds pause_;
  const std::string response_;
  int listenFd_ = -1;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable stopping_;
  bool stopped_ = false;
  int connections_ = 0;
};

}  // namespace lathe::testing
