// An httplib server on 127.0.0.1 (a free port) for tests that fake one
// endpoint: routes are added to `server` first, then start(); the destructor
// stops it and joins its thread. Test-only.
#pragma once

#include <httplib.h>

#include <string>
#include <thread>

namespace lathe::testing {

struct LocalHttpServer {
  httplib::Server server;
  std::thread thread;
  int port = 0;

  // False when no port could be bound.
  bool start() {
    port = server.bind_to_any_port("127.0.0.1");
    if (port <= 0) return false;
    thread = std::thread([this] { server.listen_after_bind(); });
    while (!server.is_running()) std::this_thread::yield();
    return true;
  }
  ~LocalHttpServer() {
    server.stop();
    if (thread.joinable()) thread.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port); }
};

}  // namespace lathe::testing
