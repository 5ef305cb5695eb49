// session_store_bench: the cost of recording sessions. Records a session of
// 10,000 messages turn by turn (a prompt, a streamed answer, a usage update
// per turn, as the engine does) into a temp XDG-style store, then prints:
// bytes appended per turn, the time to load it (SessionRecorder::open: read,
// parse, rebuild the history; the median of several runs), and the heap an
// idle loaded session's history and recorder hold (mallinfo2 deltas).
//
//   build/bench/session_store_bench [--messages N] [--runs N]
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/persistence/session_recorder.h"

using namespace lathe;
using namespace lathe::engine;
using Clock = std::chrono::steady_clock;

namespace {

std::string prose(size_t bytes, size_t seed) {
  static const char* words[] = {"session", "history", "record ", "append ", "replay ", "editor ", "model  ", "tool   "};
  std::string text;
  for (size_t i = 0; text.size() < bytes; ++i) text += std::string(words[(i + seed) % 8]) + " ";
  return text;
}

size_t heapUsed() { return mallinfo2().uordblks; }

// Records `messages` contents (alternating prompt/answer) and returns bytes per turn.
double record(const persist::SessionStore& store, const std::string& id, size_t messages) {
  persist::SessionMeta meta;
  meta.id = id;
  meta.cwd = "/tmp/bench";
  auto recorder = persist::SessionRecorder::create(store, meta);
  if (!recorder) {
    std::fprintf(stderr, "cannot record: %s\n", recorder.error().message.c_str());
    std::exit(1);
  }
  History history;
  CancelToken token;
  for (size_t turn = 0; turn * 2 < messages; ++turn) {
    std::string prompt = prose(160, turn);
    (void)history.appendUser({Part::makeText(prompt)});
    (*recorder)->onUpdate(acp::MessageChunk{acp::MessageChunk::Role::user, prompt});
    (*recorder)->beforeModelRequest(history, token);
    std::string answer = prose(600, turn + 3);
    for (size_t at = 0; at < answer.size(); at += 40) {  // streamed in pieces, as the model does
      (*recorder)->onUpdate(acp::MessageChunk{acp::MessageChunk::Role::agent, answer.substr(at, 40)});
    }
    (*recorder)->onUpdate(acp::UsageUpdate{int64_t(turn * 300), 1048576});
    (void)history.appendModel(Content{Role::model, {Part::makeText(answer)}});
    (*recorder)->turnEnded(history);
  }
  double turns = double((messages + 1) / 2);
  double perTurn = double((*recorder)->bytesWritten()) / turns;
  (*recorder)->close();
  return perTurn;
}

}  // namespace

int main(int argc, char** argv) {
  size_t messages = 10000;
  int runs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--messages")) messages = std::strtoul(argv[i + 1], nullptr, 10);
    if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
  }
  std::string pattern = (std::filesystem::temp_directory_path() / "lathe-store-bench-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) return 1;
  persist::SessionStore store(pattern);

  double perTurn = record(store, "sess_big", messages);
  auto recordBytes = std::filesystem::file_size(pattern + "/sess_big/record.jsonl");

  std::vector<double> loadMs;
  size_t heapPerBig = 0;
  for (int run = 0; run < runs; ++run) {
    size_t before = heapUsed();
    auto start = Clock::now();
    auto opened = persist::SessionRecorder::open(store, "sess_big");
    loadMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    if (!opened || opened->history.size() != messages) {
      std::fprintf(stderr, "load failed\n");
      return 1;
    }
    opened->shown.clear();  // replayed once, then dropped: idle sessions keep history + recorder
    opened->shown.shrink_to_fit();
    heapPerBig = heapUsed() - before;
    opened->recorder->close();
  }
  std::sort(loadMs.begin(), loadMs.end());

  (void)record(store, "sess_small", 20);
  size_t before = heapUsed();
  auto small = persist::SessionRecorder::open(store, "sess_small");
  small->shown.clear();
  small->shown.shrink_to_fit();
  size_t heapPerSmall = heapUsed() - before;

  std::printf("messages                         %zu\n", messages);
  std::printf("record.jsonl                     %.1f KiB\n", double(recordBytes) / 1024);
  std::printf("bytes appended per turn          %.0f (prompt 160 B + answer 600 B of text)\n", perTurn);
  std::printf("session/load read+rebuild        %.1f ms median of %d (min %.1f, max %.1f)\n", loadMs[loadMs.size() / 2],
              runs, loadMs.front(), loadMs.back());
  std::printf("heap of an idle loaded session   %.1f KiB (%zu messages), %.1f KiB (20 messages)\n",
              double(heapPerBig) / 1024, messages, double(heapPerSmall) / 1024);
  std::filesystem::remove_all(pattern);
  return 0;
}
