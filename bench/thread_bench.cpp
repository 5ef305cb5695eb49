// thread_bench: how many threads one agent process holds, for several
// binaries side by side (issue 19): idle with 11 sessions, and with one more
// session holding 3 MCP stdio servers, both just after they answered and
// once the executor's idle workers have retired (11 s later); then with a
// session that started 5 background shell commands (yolo), once idle again.
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

// Children of `pid` running `sleep` (the background commands that started;
// a session title's model call may take one of the scripted replies).
int sleepingChildren(pid_t pid) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::ifstream stat(entry.path() / "stat");
    std::string text;
    std::getline(stat, text);
    size_t close = text.rfind(')');
    if (close == std::string::npos || text.find("(sleep)") == std::string::npos) continue;
    int ppid = 0;
    if (std::sscanf(text.c_str() + close + 2, "%*c %d", &ppid) == 1 && ppid == pid) ++count;
  }
  return count;
}

struct Counts {
  int idle = -1, mcpStarted = -1, mcpIdle = -1, background = -1, commands = -1;
};

// One prompt whose turn starts `count` background `sleep 300`s, answered.
void startBackground(AcpTestClient& client, FakeGeminiServer& fake, const std::string& ws, int count) {
  std::string session = client.newSession(ws);
  for (int i = 0; i < count; ++i) {
    fake.push(ScriptedReply::functionCall("run_shell_command", R"({"command":"sleep 300","is_background":true})"));
  }
  fake.push(ScriptedReply::text("Started."));
  auto id = client.request("session/prompt",
                           R"({"sessionId":")" + session + R"(","prompt":[{"type":"text","text":"start them"}]})");
  (void)client.waitResponse(id, 30s);
}

Counts measure(const std::string& binary, FakeGeminiServer& fake) {
  TempDir home, ws, logs;
  SubprocessOptions spawn;
  spawn.argv = {binary, "--acp", "--approval-mode", "yolo"};
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
  startBackground(client, fake, ws.str(), 5);
  std::this_thread::sleep_for(11s);
  counts.background = threadsOf((*process)->pid());
  counts.commands = sleepingChildren((*process)->pid());
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
  std::printf("%-40s %14s %20s %20s %22s\n", "threads of one process", "11 idle", "+3 MCP stdio, fresh",
              "+3 MCP stdio, 11 s", "+background, 11 s (n)");
  for (int i = 1; i < argc; ++i) {
    Counts c = measure(fs::absolute(argv[i]).string(), fake);
    std::printf("%-40s %14d %20d %20d %18d (%d)\n", argv[i], c.idle, c.mcpStarted, c.mcpIdle, c.background,
                c.commands);
  }
  return 0;
}
