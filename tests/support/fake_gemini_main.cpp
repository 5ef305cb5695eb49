// fake_gemini: the fake Gemini API as a standalone program for benchmarks and
// manual runs. Prints "PORT <n>" on stdout, then serves until stdin closes or
// SIGTERM/SIGINT arrives. Main thread waits; the server runs its own threads.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "tests/support/fake_gemini_server.h"

namespace {

volatile sig_atomic_t gStop = 0;

void onSignal(int) { gStop = 1; }

int usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--port N] [--auto FILE_PATH] [--replay FILE.jsonl] [--no-history-check] [--ignore-stdin]\n"
               "  --auto FILE_PATH   when the script is empty, call read_file(FILE_PATH), then answer \"Done.\"\n"
               "  --replay FILE      serve a Gemini CLI --fake-responses recording, in order\n"
               "  --ignore-stdin     serve until SIGTERM/SIGINT even when stdin closes\n",
               argv0);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  lathe::testing::FakeGeminiOptions options;
  int port = 0;
  std::string replay;
  bool watchStdin = true;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--port") {
      const char* v = value();
      if (!v) return usage(argv[0]);
      port = std::atoi(v);
    } else if (arg == "--auto") {
      const char* v = value();
      if (!v) return usage(argv[0]);
      options.fallback = lathe::testing::FallbackMode::autoTool;
      options.autoReadPath = v;
    } else if (arg == "--replay") {
      const char* v = value();
      if (!v) return usage(argv[0]);
      replay = v;
    } else if (arg == "--ignore-stdin") {
      watchStdin = false;
    } else if (arg == "--no-history-check") {
      options.checkHistory = false;
    } else {
      return usage(argv[0]);
    }
  }

  struct sigaction action {};
  action.sa_handler = onSignal;
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);

  lathe::testing::FakeGeminiServer server(options);
  if (!replay.empty()) {
    if (auto loaded = server.loadReplayFile(replay); !loaded) {
      std::fprintf(stderr, "fake_gemini: %s\n", loaded.error().message.c_str());
      return 1;
    }
  }
  if (auto started = server.start(port); !started) {
    std::fprintf(stderr, "fake_gemini: %s\n", started.error().message.c_str());
    return 1;
  }
  std::cout << "PORT " << server.port() << std::endl;

  // Serve until stdin reaches end of file or a signal asks us to stop.
  while (!gStop) {
    pollfd in{0, POLLIN, 0};
    int ready = watchStdin ? poll(&in, 1, 200) : poll(nullptr, 0, 200);
    if (ready > 0 && (in.revents & POLLNVAL)) {
      watchStdin = false;
    } else if (ready > 0) {
      char buffer[4096];
      if (read(0, buffer, sizeof buffer) <= 0) break;
    }
  }
  server.stop();
  for (const auto& request : server.generateRequests()) {
    std::fprintf(stderr, "fake_gemini: %s for model %s\n", request.action.c_str(), request.model.c_str());
  }
  auto broken = server.violations();
  for (const auto& v : broken) std::fprintf(stderr, "fake_gemini: violation: %s\n", v.c_str());
  std::fprintf(stderr, "fake_gemini: served %zu request(s), %zu violation(s)\n", server.requests().size(),
               broken.size());
  return broken.empty() ? 0 : 3;
}
