// context_bench: what context management costs and saves, in process.
//  1. Per-turn overhead with 10, 100 and 1,000 messages of history: a session
//     with its context hooks against a model that answers at once (no wire),
//     so the figure is Lathe's own work per turn; it must not grow with the
//     history (the request's encoding, which does, is not part of it).
//  2. 60 prompts that each read a 120 KB file, through the Gemini provider and
//     the fake Gemini server: the last request's size and the turn time of the
//     first and last prompts, without the context hooks (as before) and with.
// Prints figures only.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "engine/context/context_hooks.h"
#include "engine/model/gemini/gemini_wire.h"
#include "engine/model/provider_setup.h"
#include "engine/session/session.h"
#include "tests/support/fake_gemini_server.h"

using namespace lathe;
using namespace lathe::engine;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

class NullEditor final : public EditorClient {
 public:
  void sendUpdate(const std::string&, const acp::SessionUpdate&) override {}
  Result<acp::RequestPermissionResponse> requestPermission(const acp::RequestPermissionRequest&,
                                                           const CancelToken&) override {
    return makeError(Errc::internal, "no permissions in this bench");
  }
  acp::ClientCapabilities capabilities() const override { return {}; }
  Result<std::string> readTextFile(const std::string&, const std::string&, const CancelToken&) override {
    return makeError(Errc::internal, "no buffers");
  }
  Status writeTextFile(const std::string&, const std::string&, const std::string&, const CancelToken&) override {
    return makeError(Errc::internal, "no buffers");
  }
};

// Answers every request at once with a short text and a prompt token count.
class InstantModel final : public ModelProvider {
 public:
  Result<ModelReply> stream(const ModelRequest&, const ChunkSink& onChunk, const CancelToken&) override {
    ModelChunk chunk;
    chunk.parts.push_back(Part::makeText("An answer of a typical length for a short exchange in a session."));
    chunk.finishReason = FinishReason::stop;
    chunk.usage = Usage{5000, 20, 0, 5020};
    onChunk(chunk);
    ModelReply reply;
    reply.content.parts = chunk.parts;
    reply.finishReason = FinishReason::stop;
    reply.usage = chunk.usage;
    return reply;
  }
  Result<ModelReply> generate(const ModelRequest&, const CancelToken&) override {
    ModelReply reply;
    reply.content.parts.push_back(Part::makeText("A bench title"));
    return reply;
  }
};

fs::path tempDir() {
  std::string pattern = (fs::temp_directory_path() / "lathe-context-bench-XXXXXX").string();
  return fs::canonical(::mkdtemp(pattern.data()));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<acp::ContentBlock> promptOf(const std::string& text) { return {acp::TextBlock{text}}; }

void overheadPerTurn() {
  std::printf("Per-turn overhead (instant in-process model, context hooks on), median of 50 turns:\n");
  fs::path dir = tempDir();
  for (int messages : {10, 100, 1000}) {
    AgentConfig config;
    config.provider = std::make_shared<InstantModel>();
    config.dataDir = (dir / "data").string();
    NullEditor editor;
    auto ws = std::make_shared<const tools::Workspace>(tools::Workspace::create(dir.string()).value());
    Session session("bench", ws, config, editor);
    CommandRegistry commands;
    addContextHooks(session, commands);
    for (int i = 0; i < messages / 2; ++i) {
      (void)session.prompt(promptOf("An earlier prompt of ordinary length, number " + std::to_string(i)), CancelToken());
    }
    // For scale: encoding the request for the wire, which does grow with the history.
    ModelRequest request;
    request.model = "bench";
    request.contents = &session.history().contents();
    auto encodeStart = Clock::now();
    size_t encoded = gemini::buildRequestBody(request).size();
    const double encodeMicros = std::chrono::duration<double, std::micro>(Clock::now() - encodeStart).count();
    std::vector<double> micros;
    for (int i = 0; i < 50; ++i) {
      auto start = Clock::now();
      auto stop = session.prompt(promptOf("Another prompt of ordinary length"), CancelToken());
      if (!stop) {
        std::printf("  a turn failed: %s\n", stop.error().message.c_str());
        return;
      }
      micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    }
    std::printf("  %5d messages of history: %6.1f us per turn (the request's encoding alone: %7.1f us, %zu bytes)\n",
                messages, median(micros), encodeMicros, encoded);
  }
  fs::remove_all(dir);
}

void longReadSession(bool withHooks) {
  fs::path dir = tempDir();
  {
    std::ofstream file(dir / "big.txt");
    for (int i = 0; i < 1500; ++i) {
      std::string line = "line " + std::to_string(i) + " ";
      file << line << std::string(79 - line.size(), 'x') << "\n";  // 1,500 x 80 bytes = 120 KB
    }
  }
  testing::FakeGeminiOptions fakeOptions;
  fakeOptions.fallback = testing::FallbackMode::autoTool;
  fakeOptions.autoReadPath = "big.txt";
  fakeOptions.checkHistory = false;  // the fake's own checks are not Lathe's cost
  testing::FakeGeminiServer server(fakeOptions);
  if (!server.start().ok()) return;
  ProviderOptions providerOptions;
  providerOptions.apiKey = "bench";
  providerOptions.baseUrl = server.baseUrl();
  AgentConfig config;
  config.provider = makeProvider(providerOptions).value();
  config.dataDir = (dir / "data").string();
  config.approvalMode = ApprovalMode::yolo;
  NullEditor editor;
  auto ws = std::make_shared<const tools::Workspace>(tools::Workspace::create(dir.string()).value());
  Session session("bench", ws, config, editor);
  CommandRegistry commands;
  if (withHooks) addContextHooks(session, commands);
  std::vector<double> turnMs;
  for (int i = 0; i < 60; ++i) {
    auto start = Clock::now();
    auto stop = session.prompt(promptOf("Read big.txt again, please (" + std::to_string(i) + ")"), CancelToken());
    turnMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    if (!stop) {
      std::printf("  turn %d failed: %s\n", i + 1, stop.error().message.c_str());
      break;
    }
  }
  auto requests = server.generateRequests();
  size_t largest = 0;
  for (const auto& r : requests) largest = std::max(largest, r.body.size());
  std::printf("  %-22s first request %7.1f KB, last %7.1f KB, largest %7.1f KB; turn 1 %5.1f ms, turn 60 %5.1f ms\n",
              withHooks ? "with context hooks:" : "without (as before):",
              requests.empty() ? 0.0 : requests.front().body.size() / 1024.0,
              requests.empty() ? 0.0 : requests.back().body.size() / 1024.0, largest / 1024.0, turnMs.front(),
              turnMs.back());
  server.stop();
  fs::remove_all(dir);
}

}  // namespace

int main() {
  overheadPerTurn();
  std::printf("60 prompts that each read a 120 KB file (fake Gemini server over HTTP):\n");
  longReadSession(false);
  longReadSession(true);
  return 0;
}
