// openai_stream_bench: a reply of 5,000 streamed deltas (4,500 of text, a tool
// call split across 500) from the fake OpenAI-compatible server, through the
// provider: the time from the first streamed delta to the assembled tool call
// being handed to the loop, and the cost per delta (the whole stream, and the
// wire mapping alone). Prints medians of N runs; figures only.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "engine/model/openai/openai_provider.h"
#include "engine/model/openai/openai_wire.h"
#include "tests/support/fake_openai_server.h"

using namespace lathe;
using namespace lathe::engine;
using Clock = std::chrono::steady_clock;
using Reply = testing::OpenAiReply;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<std::string> replyEvents() {
  std::vector<std::string> events;
  for (int i = 0; i < 4499; ++i) events.push_back(Reply::textDelta("word" + std::to_string(i) + " "));
  // The call: its id and name, then 499 pieces of 4 bytes of arguments, then the finish: 500 deltas.
  const std::string head = R"({"file_path":"src/)", tail = R"(.txt"})";
  std::string args = head + std::string(499 * 4 - head.size() - tail.size(), 'a') + tail;
  events.push_back(Reply::toolDelta(0, "call_1", "read_file", ""));
  for (size_t at = 0; at < args.size(); at += 4) events.push_back(Reply::toolDelta(0, "", "", args.substr(at, 4)));
  events.push_back(Reply::finish("tool_calls"));
  return events;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 9;
  auto events = replyEvents();
  testing::FakeOpenAiServer server;
  if (!server.start().ok()) return 1;
  OpenAiProvider::Options options;
  options.baseUrl = server.baseUrl();
  OpenAiProvider provider(options);
  std::vector<Content> history{{Role::user, {Part::makeText("go")}}};
  ModelRequest request;
  request.model = "bench";
  request.contents = &history;

  std::vector<double> firstToCall, perDelta, mappingPerDelta;
  for (int run = 0; run <= runs; ++run) {
    server.push(Reply::stream(events));
    Clock::time_point first{};
    auto reply = provider.stream(request, [&](const ModelChunk&) {
      if (first == Clock::time_point{}) first = Clock::now();
    }, CancelToken());
    auto end = Clock::now();
    if (!reply || reply->content.parts.empty() || !reply->content.parts.back().functionCall) {
      std::fprintf(stderr, "the stream did not end in a tool call\n");
      return 1;
    }
    auto mapStart = Clock::now();
    openai::StreamAssembler assembler;
    for (const auto& e : events) (void)assembler.feed(e);
    (void)assembler.finish();
    auto mapEnd = Clock::now();
    if (run == 0) continue;  // warm-up
    double ms = std::chrono::duration<double, std::milli>(end - first).count();
    firstToCall.push_back(ms);
    perDelta.push_back(ms * 1000.0 / static_cast<double>(events.size()));
    mappingPerDelta.push_back(std::chrono::duration<double, std::micro>(mapEnd - mapStart).count() /
                              static_cast<double>(events.size()));
  }
  std::printf("openai_stream_bench: %zu deltas (a tool call across 500), %d runs\n", events.size(), runs);
  std::printf("  first delta -> tool call ready   %8.2f ms\n", median(firstToCall));
  std::printf("  per delta, whole stream          %8.2f us\n", median(perDelta));
  std::printf("  per delta, wire mapping alone    %8.2f us\n", median(mappingPerDelta));
  return 0;
}
