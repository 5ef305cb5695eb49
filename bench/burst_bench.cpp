// burst_bench: memory of one Lathe process through a burst of concurrent
// prompts. It starts `lathe --acp` against an in-process fake Gemini server
// (auto mode: read_file, then "Done."), opens N sessions, runs one prompt in
// each at once, closes the sessions, and prints the resident memory (VmRSS)
// when idle, at the peak, after the burst and after closing. Figures only.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/acp_client.h"
#include "tests/support/fake_gemini_server.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace std::chrono_literals;

namespace {

long rssKb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  int sessions = argc > 2 ? std::atoi(argv[2]) : 100;
  if (argc < 2 || sessions < 1) {
    std::fprintf(stderr, "usage: burst_bench LATHE_BINARY [SESSIONS]\n");
    return 2;
  }
  testing::TempDir dir;
  std::ofstream(dir.path / "notes.txt") << "a small file to read\n";
  testing::FakeGeminiOptions fakeOptions;
  fakeOptions.fallback = testing::FallbackMode::autoTool;
  fakeOptions.autoReadPath = (dir.path / "notes.txt").string();
  testing::FakeGeminiServer fake(fakeOptions);
  if (!fake.start().ok()) return 1;

  testing::SubprocessOptions spawn;
  spawn.argv = {argv[1], "--acp"};
  spawn.cwd = dir.path.string();
  spawn.env = {{"GEMINI_API_KEY", "dummy"}, {"GOOGLE_GEMINI_BASE_URL", fake.baseUrl()},
               {"HOME", dir.path.string()}, {"XDG_STATE_HOME", (dir.path / "state").string()}};
  auto agent = testing::Subprocess::spawn(spawn);
  if (!agent) {
    std::fprintf(stderr, "cannot start %s: %s\n", argv[1], agent.error().message.c_str());
    return 1;
  }
  testing::AcpTestClient client(**agent);
  client.initialize();
  std::vector<std::string> ids;
  for (int i = 0; i < sessions; ++i) ids.push_back(client.newSession(dir.path.string()));
  std::this_thread::sleep_for(200ms);
  long idle = rssKb((*agent)->pid());

  long peak = idle;
  std::vector<int64_t> prompts;
  for (const auto& id : ids) {
    prompts.push_back(client.request("session/prompt", R"({"sessionId":")" + id +
                                                           R"(","prompt":[{"type":"text","text":"read it"}]})"));
  }
  int ended = 0;
  for (int64_t id : prompts) {
    peak = std::max(peak, rssKb((*agent)->pid()));
    if (client.waitResponse(id, 60s)) ++ended;
  }
  std::this_thread::sleep_for(300ms);
  long afterBurst = rssKb((*agent)->pid());
  for (const auto& id : ids) client.call("session/close", R"({"sessionId":")" + id + R"("})");
  std::this_thread::sleep_for(300ms);
  long afterClose = rssKb((*agent)->pid());

  std::printf("burst_bench: %d sessions, one prompt each at once (%d ended)\n", sessions, ended);
  std::printf("  idle with %d sessions     %7.1f MB\n", sessions, idle / 1024.0);
  std::printf("  peak during the burst     %7.1f MB\n", peak / 1024.0);
  std::printf("  after the burst           %7.1f MB\n", afterBurst / 1024.0);
  std::printf("  after closing them all    %7.1f MB\n", afterClose / 1024.0);
  (*agent)->closeStdin();
  return ended == sessions ? 0 : 1;
}
