// session_bench: the cost of recorded sessions. Records a 10,000-message
// session through the real recorder (printing the bytes each turn appends),
// then starts the real agent on that state directory and prints how long
// session/load takes (replay included) and how much resident memory a loaded
// idle session costs, for the big session and for many small ones.
// Single-threaded driver; the ACP client runs its own reader thread.
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/memory_sampler.h"
#include "engine/persistence/session_recorder.h"
#include "protocol/acp/updates.h"
#include "protocol/base/json.h"
#include "tests/support/acp_client.h"
#include "tests/support/subprocess.h"

namespace fs = std::filesystem;
using namespace lathe;
using namespace lathe::testing;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A prompt of about 120 bytes and an answer of about 600, streamed in 6 chunks.
std::string promptText(int turn) {
  return "Turn " + std::to_string(turn) + ": please look at the parser again and tell me why the second case fails.";
}
std::string chunkText(int turn, int piece) {
  return "Part " + std::to_string(piece) + " of answer " + std::to_string(turn) +
         ": the tokenizer keeps the trailing delimiter, so the second case sees an empty field here. ";
}

struct Recorded {
  std::vector<uint64_t> bytesPerTurn;
  uint64_t recordBytes = 0;
};

// Records `turns` turns (2 messages each) of session `id` as a real turn would.
Result<Recorded> record(const engine::persist::SessionStore& store, const std::string& id, const std::string& cwd,
                        int turns) {
  engine::persist::SessionMeta meta;
  meta.id = id;
  meta.cwd = cwd;
  meta.mcpServers = json::Raw{"[]"};
  meta.mode = "default";
  meta.model = "gemini-bench";
  auto recorder = engine::persist::SessionRecorder::create(store, meta);
  if (!recorder) return recorder.error();
  engine::History history;
  Recorded out;
  CancelToken token;
  for (int turn = 0; turn < turns; ++turn) {
    uint64_t before = (*recorder)->bytesWritten();
    std::string prompt = promptText(turn);
    (*recorder)->onUpdate(acp::MessageChunk{acp::MessageChunk::Role::user, prompt});
    if (auto s = history.appendUser({engine::Part::makeText(prompt)}); !s) return s.error();
    (*recorder)->beforeModelRequest(history, token);
    std::string answer;
    for (int piece = 0; piece < 6; ++piece) {
      std::string text = chunkText(turn, piece);
      (*recorder)->onUpdate(acp::MessageChunk{acp::MessageChunk::Role::agent, text});
      answer += text;
    }
    engine::Content reply;
    reply.role = engine::Role::model;
    reply.parts.push_back(engine::Part::makeText(std::move(answer)));
    if (auto s = history.appendModel(std::move(reply)); !s) return s.error();
    (*recorder)->turnEnded(history);
    out.bytesPerTurn.push_back((*recorder)->bytesWritten() - before);
  }
  (*recorder)->close();
  out.recordBytes = (*recorder)->bytesWritten();
  return out;
}

std::string loadParams(const std::string& id, const std::string& cwd) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", id);
    json::put(w, "cwd", cwd);
    json::put(w, "mcpServers", json::Raw{"[]"});
    w.EndObject();
  });
}

double rssMb(pid_t pid) { return bench::groupMemory(pid).rssSumKb / 1024.0; }

int run(const std::string& lathe, int messages, int smallSessions) {
  std::string templ = (fs::temp_directory_path() / "session-bench-XXXXXX").string();
  if (!mkdtemp(templ.data())) return 1;
  fs::path root(templ);
  fs::create_directories(root / "ws");
  const std::string cwd = (root / "ws").string();
  engine::persist::SessionStore store((root / "lathe" / "sessions").string());

  auto start = Clock::now();
  auto big = record(store, "sess_bench_big", cwd, messages / 2);
  if (!big) {
    std::fprintf(stderr, "recording failed: %s\n", big.error().message.c_str());
    return 1;
  }
  double recordMs = msSince(start);
  std::vector<uint64_t> sorted = big->bytesPerTurn;
  std::sort(sorted.begin(), sorted.end());
  std::printf("recorded %d messages in %.0f ms; record.jsonl %.2f MB\n", messages, recordMs,
              big->recordBytes / 1048576.0);
  std::printf("bytes appended per turn (prompt ~100 B, answer ~600 B in 6 chunks): median %llu, max %llu\n",
              static_cast<unsigned long long>(sorted[sorted.size() / 2]),
              static_cast<unsigned long long>(sorted.back()));
  for (int i = 0; i < smallSessions; ++i) {
    if (!record(store, "sess_bench_small_" + std::to_string(i), cwd, 10)) return 1;
  }

  start = Clock::now();
  {
    auto opened = engine::persist::SessionRecorder::open(store, "sess_bench_big");
    if (!opened) {
      std::fprintf(stderr, "open failed: %s\n", opened.error().message.c_str());
      return 1;
    }
    std::printf("in-process open (read + rebuild %zu contents, %zu updates): %.1f ms\n",
                opened->history.contents().size(), opened->shown.size(), msSince(start));
  }

  SubprocessOptions spawn;
  spawn.argv = {lathe, "--acp"};
  spawn.cwd = cwd;
  spawn.env = {{"XDG_STATE_HOME", root.string()},
               {"GEMINI_API_KEY", "bench"},
               {"GOOGLE_GEMINI_BASE_URL", "http://127.0.0.1:9"}};
  auto agent = Subprocess::spawn(spawn);
  if (!agent) return 1;
  {
    AcpTestClient client(**agent);
    if (!client.initialize()) return 1;
    double idleMb = rssMb((*agent)->pid());
    start = Clock::now();
    Message loaded = client.call("session/load", loadParams("sess_bench_big", cwd), std::chrono::seconds(120));
    double loadMs = msSince(start);
    if (!loaded || !json::find(*loaded, "result")) {
      std::fprintf(stderr, "session/load failed\n%s\n", (*agent)->stderrText().c_str());
      return 1;
    }
    size_t replayed = client.notifications().size();
    double bigMb = rssMb((*agent)->pid());
    std::printf("session/load of %d messages (replay of %zu updates received, then the answer): %.1f ms\n", messages,
                replayed, loadMs);
    std::printf("agent RSS: %.1f MB idle, %.1f MB with it loaded (+%.1f MB)\n", idleMb, bigMb, bigMb - idleMb);

    double beforeSmall = rssMb((*agent)->pid());
    for (int i = 0; i < smallSessions; ++i) {
      Message m = client.call("session/load", loadParams("sess_bench_small_" + std::to_string(i), cwd));
      if (!m || !json::find(*m, "result")) return 1;
    }
    double afterSmall = rssMb((*agent)->pid());
    std::printf("%d idle loaded sessions of 20 messages: +%.1f MB, %.0f KB each\n", smallSessions,
                afterSmall - beforeSmall, (afterSmall - beforeSmall) * 1024.0 / smallSessions);
  }
  agent->reset();
  std::error_code ec;
  fs::remove_all(root, ec);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: session_bench LATHE_BINARY [MESSAGES=10000] [SMALL_SESSIONS=50]\n"
                 "example: session_bench build/server/lathe\n");
    return 2;
  }
  std::string lathe = fs::absolute(argv[1]).string();
  int messages = argc > 2 ? std::max(2, std::atoi(argv[2])) : 10000;
  int small = argc > 3 ? std::max(1, std::atoi(argv[3])) : 50;
  return run(lathe, messages, small);
}
