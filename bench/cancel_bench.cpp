// cancel_bench: from session/cancel to the whole process tree of a running
// run_shell_command (`sleep 300`, yolo mode) gone, through the binary, so two
// builds can be compared side by side (thread_bench counts threads).
// Usage: cancel_bench LATHE_BINARY [RUNS]. Prints the median. Figures only.
#include <dirent.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/acp_client.h"
#include "tests/support/fake_gemini_server.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

pid_t parentOf(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  try {
    text.assign(std::istreambuf_iterator<char>(stat), std::istreambuf_iterator<char>());
  } catch (const std::exception&) {
    return 0;  // the process went while being read (ESRCH)
  }
  size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  int ppid = 0;
  std::sscanf(text.c_str() + close + 2, "%*c %d", &ppid);
  return ppid;
}

// Every process below `root`.
std::set<pid_t> descendants(pid_t root) {
  std::vector<std::pair<pid_t, pid_t>> all;  // (pid, parent)
  if (DIR* proc = ::opendir("/proc")) {
    while (dirent* entry = ::readdir(proc)) {
      pid_t pid = std::atoi(entry->d_name);
      if (pid > 0) all.emplace_back(pid, parentOf(pid));
    }
    ::closedir(proc);
  }
  std::set<pid_t> below{root};
  for (bool grew = true; grew;) {
    grew = false;
    for (auto [pid, parent] : all) {
      if (below.count(parent) && below.insert(pid).second) grew = true;
    }
  }
  below.erase(root);
  return below;
}

struct Agent {
  testing::TempDir dir;
  testing::FakeGeminiServer fake;
  std::unique_ptr<testing::Subprocess> process;
  std::unique_ptr<testing::AcpTestClient> client;

  explicit Agent(const char* binary, std::vector<std::string> extraArgs = {}) {
    std::ofstream(dir.path / "notes.txt") << "a small file to read\n";
    if (!fake.start().ok()) std::exit(1);
    testing::SubprocessOptions spawn;
    spawn.argv = {binary, "--acp"};
    for (auto& arg : extraArgs) spawn.argv.push_back(std::move(arg));
    spawn.cwd = dir.path.string();
    spawn.env = {{"GEMINI_API_KEY", "dummy"}, {"GOOGLE_GEMINI_BASE_URL", fake.baseUrl()},
                 {"HOME", dir.path.string()}, {"XDG_STATE_HOME", (dir.path / "state").string()}};
    auto started = testing::Subprocess::spawn(spawn);
    if (!started) {
      std::fprintf(stderr, "cannot start %s: %s\n", binary, started.error().message.c_str());
      std::exit(1);
    }
    process = std::move(started).value();
    client = std::make_unique<testing::AcpTestClient>(*process);
    client->initialize();
  }
  ~Agent() { process->closeStdin(); }
};

double cancelToTreeGone(const char* binary) {
  Agent agent(binary, {"--approval-mode", "yolo"});
  std::string session = agent.client->newSession(agent.dir.path.string());
  agent.fake.push(testing::ScriptedReply::functionCall("run_shell_command", R"({"command":"sleep 300"})"));
  agent.fake.push(testing::ScriptedReply::text("Stopped."));
  auto id = agent.client->request("session/prompt", R"({"sessionId":")" + session +
                                                        R"(","prompt":[{"type":"text","text":"wait"}]})");
  const auto giveUp = Clock::now() + 20s;
  while (descendants(agent.process->pid()).empty() && Clock::now() < giveUp) std::this_thread::sleep_for(1ms);
  if (descendants(agent.process->pid()).empty()) return -1;
  std::this_thread::sleep_for(20ms);  // the command is running, not starting
  auto start = Clock::now();
  agent.client->notify("session/cancel", R"({"sessionId":")" + session + R"("})");
  while (!descendants(agent.process->pid()).empty() && Clock::now() < giveUp) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  (void)agent.client->waitResponse(id, 10s);
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = argc > 2 ? std::atoi(argv[2]) : 9;
  if (argc < 2 || runs < 1) {
    std::fprintf(stderr, "usage: cancel_bench LATHE_BINARY [RUNS]\n");
    return 2;
  }
  std::vector<double> cancels;
  for (int i = 0; i < runs; ++i) {
    if (double ms = cancelToTreeGone(argv[1]); ms >= 0) cancels.push_back(ms);
  }
  std::sort(cancels.begin(), cancels.end());
  std::printf("cancel_bench: %s\n", argv[1]);
  if (cancels.empty()) {
    std::printf("  cancel -> process tree gone                       (no command seen running)\n");
  } else {
    std::printf("  cancel -> process tree gone, median of %zu         %.1f ms\n", cancels.size(),
                cancels[cancels.size() / 2]);
  }
  return 0;
}
