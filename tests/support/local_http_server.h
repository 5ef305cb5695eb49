// An httplib server on 127.0.0.1 (a free port) for tests that fake one
// endpoint: routes are added to `server` first, then start(); the destructor
// stops it and joins its thread. Test-only.
#pragma once

#include <httplib.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace lathe::testing {

// Runs server.listen_after_bind() on a new thread and returns it once the
// server runs (stop() is a no-op before then). httplib 0.11 has no "ready"
// callback, but it makes its task queue right after marking itself running:
// that call is the notification. *listening (if given) is false when the
// listener returned without ever running.
inline std::thread listenInBackground(httplib::Server& server, bool* listening = nullptr) {
  struct State {
    std::mutex mutex;
    std::condition_variable changed;
    bool running = false;
    bool returned = false;
  };
  auto state = std::make_shared<State>();
  auto mark = [state](bool State::*flag) {
    {
      std::lock_guard lock(state->mutex);
      (*state).*flag = true;
    }
    state->changed.notify_all();
  };
  server.new_task_queue = [makeQueue = server.new_task_queue, mark] {
    mark(&State::running);
    return makeQueue();
  };
  std::thread listener([&server, mark] {
    server.listen_after_bind();
    mark(&State::returned);
  });
  std::unique_lock lock(state->mutex);
  state->changed.wait(lock, [&] { return state->running || state->returned; });
  if (listening) *listening = state->running;
  return listener;
}

struct LocalHttpServer {
  httplib::Server server;
  std::thread thread;
  int port = 0;

  // False when no port could be bound.
  bool start() {
    port = server.bind_to_any_port("127.0.0.1");
    if (port <= 0) return false;
    thread = listenInBackground(server);
    return true;
  }
  ~LocalHttpServer() {
    server.stop();
    if (thread.joinable()) thread.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port); }
};

}  // namespace lathe::testing
