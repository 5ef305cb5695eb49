// subagent_bench: what sub-agents cost through the real agent against the fake
// Gemini server. One prompt starts 4 generalist children in one reply, each
// making one read_file call and answering (all 4 alive at once: each child's
// first reply waits until all 4 have asked); the same prompt in a single
// session makes the same 4 read_file calls itself. Prints, for each, the
// median time of the turn over the rounds and the agent's resident memory:
// before the first turn, its sampled peak, and per round what the turn added
// (children: while all 4 are alive; single: at its end), so that one child's
// cost is the difference of the medians over 4 (its history included). Each
// way runs in a fresh process. Figures are printed, never asserted.
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/memory_sampler.h"
#include "protocol/base/json.h"
#include "tests/support/acp_client.h"
#include "tests/support/fake_gemini_server.h"
#include "tests/support/gemini_chunks.h"
#include "tests/support/subprocess.h"

namespace fs = std::filesystem;
using namespace lathe;
using namespace lathe::testing;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kChildren = 4;
constexpr const char* kParent = "Available sub-agents:";
constexpr size_t kFileBytes = 16 * 1024;  // what each read_file brings into a history

struct Figures {
  std::vector<double> turnMs;
  std::vector<double> addedMb;  // per round: the RSS the turn added (children: while all were alive)
  double idleMb = 0;
  double peakMb = 0;
};

double rssMb(pid_t pid) { return bench::groupMemory(pid).rssSumKb / 1024.0; }

std::string task(int i) { return "BENCH-TASK-" + std::to_string(i) + ": read file_" + std::to_string(i) + ".txt"; }

std::string readArgs(int i) { return R"({"file_path":"file_)" + std::to_string(i) + R"(.txt"})"; }

std::string promptParams(const std::string& sid, const std::string& text) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "sessionId", sid);
    json::array(w, "prompt", [&] {
      json::object(w, [&] {
        json::put(w, "type", "text");
        json::put(w, "text", text);
      });
    });
  });
}

void scriptChildren(FakeGeminiServer& fake, size_t requestsBefore) {
  std::vector<Chunk> calls;
  for (int i = 0; i < kChildren; ++i) {
    calls.emplace_back(functionCallChunk("invoke_agent", json::buildObject([&](json::Writer& w) {
                                           json::put(w, "agent_name", "generalist");
                                           json::put(w, "prompt", task(i));
                                         })));
  }
  calls.emplace_back(finishChunk());
  fake.push(ScriptedReply::stream(std::move(calls)).forRequestsWith(kParent));
  for (int i = 0; i < kChildren; ++i) {
    fake.push(ScriptedReply::functionCall("read_file", readArgs(i))
                  .forRequestsWith(task(i))
                  .heldUntil(requestsBefore + 1 + kChildren));
  }
  for (int i = 0; i < kChildren; ++i) {
    fake.push(ScriptedReply::text("Child " + std::to_string(i) + " read it.").forRequestsWith(task(i)));
  }
  fake.push(ScriptedReply::text("All read.").forRequestsWith(kParent));
}

void scriptSingle(FakeGeminiServer& fake) {
  std::vector<Chunk> calls;
  for (int i = 0; i < kChildren; ++i) calls.emplace_back(functionCallChunk("read_file", readArgs(i)));
  calls.emplace_back(finishChunk());
  fake.push(ScriptedReply::stream(std::move(calls)));
  fake.push(ScriptedReply::text("All read."));
}

std::optional<Figures> run(const std::string& lathe, bool children, int rounds, const fs::path& root) {
  FakeGeminiServer fake;
  if (!fake.start()) return std::nullopt;
  const fs::path ws = root / (children ? "ws-children" : "ws-single");
  fs::create_directories(ws);
  for (int i = 0; i < kChildren; ++i) std::ofstream(ws / ("file_" + std::to_string(i) + ".txt")) << std::string(kFileBytes, 'x');
  fs::create_directories(root / "home/.gemini");
  SubprocessOptions spawn;
  spawn.argv = {lathe, "--acp"};
  spawn.cwd = ws.string();
  spawn.env = {{"XDG_STATE_HOME", (root / "state").string()}, {"GEMINI_API_KEY", "bench"},
               {"GOOGLE_GEMINI_BASE_URL", fake.baseUrl()},     {"GEMINI_MODEL", "gemini-bench"},
               {"HOME", (root / "home").string()},             {"GEMINI_CLI_HOME", (root / "home").string()}};
  auto agent = Subprocess::spawn(spawn);
  if (!agent) return std::nullopt;
  Figures figures;
  {
    AcpTestClient client(**agent);
    if (!client.initialize()) return std::nullopt;
    bench::MemorySampler sampler((*agent)->pid(), std::chrono::milliseconds(5));
    for (int round = 0; round < rounds; ++round) {
      std::string sid = client.newSession(ws.string());
      if (sid.empty()) return std::nullopt;
      const double beforeMb = rssMb((*agent)->pid());
      if (round == 0) figures.idleMb = beforeMb;
      const size_t before = fake.generateRequests().size();
      children ? scriptChildren(fake, before) : scriptSingle(fake);
      auto start = Clock::now();
      int64_t id = client.request("session/prompt", promptParams(sid, "Read the four files."));
      double aliveMb = 0;
      if (children && fake.waitForRequests(before + 1 + kChildren, std::chrono::seconds(30))) aliveMb = rssMb((*agent)->pid());
      Message done = client.waitResponse(id, std::chrono::seconds(120));
      if (!done || !json::find(*done, "result")) {
        std::fprintf(stderr, "the turn failed\n%s\n", (*agent)->stderrText().c_str());
        return std::nullopt;
      }
      figures.turnMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      figures.addedMb.push_back((children ? aliveMb : rssMb((*agent)->pid())) - beforeMb);
      client.call("session/close", json::buildObject([&](json::Writer& w) { json::put(w, "sessionId", sid); }));
    }
    sampler.sampleNow();
    sampler.stop();
    figures.peakMb = sampler.groupPeakKb() / 1024.0;
    if (!fake.violations().empty()) std::fprintf(stderr, "fake server: %s\n", fake.violations().front().c_str());
  }
  agent->reset();
  return figures;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: subagent_bench LATHE_BINARY [ROUNDS=5]\nexample: subagent_bench build/server/lathe\n");
    return 2;
  }
  const std::string lathe = fs::absolute(argv[1]).string();
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  std::string templ = (fs::temp_directory_path() / "subagent-bench-XXXXXX").string();
  if (!mkdtemp(templ.data())) return 1;
  const fs::path root(templ);
  auto single = run(lathe, false, rounds, root);
  auto children = run(lathe, true, rounds, root);
  std::error_code ec;
  fs::remove_all(root, ec);
  if (!single || !children) return 1;
  std::printf("%d read_file calls of %zu KB each, %d rounds, median turn time and agent RSS:\n", kChildren,
              kFileBytes / 1024, rounds);
  std::printf("  single session, 4 calls in one reply: %7.1f ms  RSS %.1f MB idle, %.1f MB peak, +%.0f KB per turn\n",
              median(single->turnMs), single->idleMb, single->peakMb, median(single->addedMb) * 1024);
  std::printf("  4 parallel children, 1 call each:     %7.1f ms  RSS %.1f MB idle, %.1f MB peak, +%.0f KB with all 4 alive\n",
              median(children->turnMs), children->idleMb, children->peakMb, median(children->addedMb) * 1024);
  std::printf("  first turn: +%.0f KB single, +%.0f KB children\n", single->addedMb.front() * 1024,
              children->addedMb.front() * 1024);
  const double perChild = (median(children->addedMb) - median(single->addedMb)) / kChildren;
  std::printf("  per child beyond the single session: %.0f KB (median; its history holds about %zu KB of file text)\n",
              perChild * 1024.0, kFileBytes / 1024);
  return 0;
}
