// thread_bench: how many threads one agent process holds, for several
// binaries side by side (issue 19): idle with 11 sessions, and with one more
// session holding 3 MCP stdio servers, both just after they answered and
// once the executor's idle workers have retired (11 s later).
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "protocol/base/json.h"
#include "tests/support/acp_client.h"
#include "tests/support/fake_gemini_server.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"

namespace fs = std::filesystem;
using namespace lathe;
using namespace lathe::testing;
using namespace std::chrono_literals;

namespace {

const std::string kTestServer = std::string(LATHE_SOURCE_DIR) + "/tests/support/mcp_test_server.mjs";

int threadsOf(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Threads:", 0) == 0) return std::atoi(line.c_str() + 8);
  }
  return -1;
}

std::string stdioServers(int count, const fs::path& logs) {
  return json::build([&](json::Writer& w) {
    w.StartArray();
    for (int i = 0; i < count; ++i) {
      w.StartObject();
      json::put(w, "name", "s" + std::to_string(i));
      json::put(w, "command", "node");
      json::key(w, "args");
      w.StartArray();
      json::str(w, kTestServer);
      json::str(w, "good");
      w.EndArray();
      json::key(w, "env");
      w.StartArray();
      w.StartObject();
      json::put(w, "name", "MCP_TEST_LOG");
      json::put(w, "value", (logs / ("s" + std::to_string(i))).string());
      w.EndObject();
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
  });
}

// Whether the server's log (every message it received) shows tools/list.
bool listed(const fs::path& log) {
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.find("tools/list") != std::string::npos;
}

struct Counts {
  int idle = -1, mcpStarted = -1, mcpIdle = -1;
};

Counts measure(const std::string& binary, const FakeGeminiServer& fake) {
  TempDir home, ws, logs;
  SubprocessOptions spawn;
  spawn.argv = {binary, "--acp"};
  spawn.cwd = ws.str();
  spawn.env = {{"GEMINI_API_KEY", "dummy"}, {"GOOGLE_GEMINI_BASE_URL", fake.baseUrl()}, {"GEMINI_MODEL", "gemini-bench"},
               {"HOME", home.str()}, {"XDG_STATE_HOME", (home.path / "state").string()}};
  spawn.unsetEnv = {"HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy", "ALL_PROXY", "all_proxy"};
  auto process = Subprocess::spawn(spawn);
  if (!process) {
    std::fprintf(stderr, "cannot start %s: %s\n", binary.c_str(), process.error().message.c_str());
    std::exit(1);
  }
  AcpTestClient client(**process);
  client.initialize();
  for (int i = 0; i < 11; ++i) client.newSession(ws.str());
  std::this_thread::sleep_for(1s);
  Counts counts;
  counts.idle = threadsOf((*process)->pid());
  client.newSession(ws.str(), stdioServers(3, logs.path));
  auto deadline = std::chrono::steady_clock::now() + 30s;
  for (int i = 0; i < 3 && std::chrono::steady_clock::now() < deadline;) {
    if (listed(logs.path / ("s" + std::to_string(i)))) {
      ++i;
    } else {
      std::this_thread::sleep_for(20ms);
    }
  }
  std::this_thread::sleep_for(500ms);
  counts.mcpStarted = threadsOf((*process)->pid());
  std::this_thread::sleep_for(11s);
  counts.mcpIdle = threadsOf((*process)->pid());
  (*process)->closeStdin();
  if (!(*process)->wait(10s)) (*process)->kill(9);
  return counts;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: thread_bench LATHE...\n");
    return 2;
  }
  ::signal(SIGPIPE, SIG_IGN);
  FakeGeminiServer fake;
  if (auto started = fake.start(); !started) {
    std::fprintf(stderr, "fake Gemini server: %s\n", started.error().message.c_str());
    return 1;
  }
  std::printf("%-40s %14s %20s %20s\n", "threads of one process", "11 idle", "+3 MCP stdio, fresh", "+3 MCP stdio, 11 s");
  for (int i = 1; i < argc; ++i) {
    Counts c = measure(fs::absolute(argv[i]).string(), fake);
    std::printf("%-40s %14d %20d %20d\n", argv[i], c.idle, c.mcpStarted, c.mcpIdle);
  }
  return 0;
}
