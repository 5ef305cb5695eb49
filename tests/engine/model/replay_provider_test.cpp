// Tests for ReplayProvider (Gemini CLI's --fake-responses format) and
// RecordingProvider (--record-responses), including a record→replay round trip.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "engine/model/gemini/gemini_wire.h"
#include "engine/model/recording_provider.h"
#include "engine/model/replay_provider.h"
#include "protocol/base/json.h"

using namespace lathe;
using namespace lathe::engine;
namespace fs = std::filesystem;

namespace {

// A fresh directory per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            ("lathe-replay-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string write(const std::string& name, const std::string& content) const {
    std::string file = (path_ / name).string();
    std::ofstream out(file, std::ios::binary);
    out << content;
    return file;
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string streamLine(const std::vector<std::string>& texts, const std::string& finish = "STOP") {
  std::string out = R"({"method":"generateContentStream","response":[)";
  for (size_t i = 0; i < texts.size(); ++i) {
    if (i) out += ",";
    out += R"({"candidates":[{"content":{"role":"model","parts":[{"text":")" + texts[i] + R"("}]})";
    if (i + 1 == texts.size()) out += R"(,"finishReason":")" + finish + R"(")";
    out += "}]}";
  }
  return out + "]}";
}

const std::vector<Content>& history() {
  static const std::vector<Content> h{{Role::user, {Part::makeText("hi")}}};
  return h;
}

ModelRequest request() {
  ModelRequest r;
  r.model = "gemini-2.5-flash";
  r.contents = &history();
  return r;
}

std::string textOf(const ModelReply& reply) {
  std::string out;
  for (const Part& p : reply.content.parts) {
    if (p.text) out += *p.text;
  }
  return out;
}

// Replays a fixed list of chunks; fails or checks the token as told.
class ScriptedProvider : public ModelProvider {
 public:
  std::vector<ModelChunk> chunks;
  bool failAtEnd = false;

  Result<ModelReply> stream(const ModelRequest&, const ChunkSink& onChunk, const CancelToken& cancel) override {
    ReplyAccumulator reply;
    for (const ModelChunk& chunk : chunks) {
      if (cancel.cancelled()) return makeError(Errc::cancelled, "cancelled");
      reply.add(chunk);
      if (onChunk) onChunk(chunk);
    }
    if (failAtEnd) return makeError(Errc::http, "Gemini API error 500 (INTERNAL): boom");
    return reply.take();
  }
  Result<ModelReply> generate(const ModelRequest& request, const CancelToken& cancel) override {
    return stream(request, nullptr, cancel);
  }
};

ModelChunk chunkFrom(const std::string& json) {
  auto chunk = gemini::parseResponseChunk(json);
  REQUIRE(chunk.ok());
  return chunk.value();
}

size_t countLines(const std::string& text) {
  size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

}  // namespace

TEST_CASE("replay: records come back in order, chunk by chunk", "[replay]") {
  TempDir dir;
  std::string path = dir.write("r.jsonl", streamLine({"Hel", "lo"}) + "\n\n  \r\n" + streamLine({"second"}) + "\r\n");
  auto provider = ReplayProvider::open(path);
  REQUIRE(provider.ok());
  CHECK((*provider)->remaining() == 2);

  std::vector<std::string> texts;
  auto first = (*provider)->stream(request(), [&](const ModelChunk& c) { texts.push_back(*c.parts.at(0).text); },
                                   CancelToken());
  REQUIRE(first.ok());
  CHECK(texts == std::vector<std::string>{"Hel", "lo"});
  CHECK(textOf(*first) == "Hello");
  CHECK(first->finishReason == FinishReason::stop);

  auto second = (*provider)->stream(request(), nullptr, CancelToken());
  REQUIRE(second.ok());
  CHECK(textOf(*second) == "second");
  CHECK((*provider)->used() == 2);
  CHECK((*provider)->remaining() == 0);

  auto third = (*provider)->stream(request(), nullptr, CancelToken());
  REQUIRE_FALSE(third.ok());
  CHECK(third.error().code == Errc::model);
  CHECK(third.error().message == "--fake-responses " + path + " has no more recorded model replies (2 used)");
}

TEST_CASE("replay: Gemini CLI's own recording lines", "[replay]") {
  // From gemini-cli's integration-tests/acp-filesystem.read.responses (reformatted).
  const std::string lines =
      R"({"method":"generateContentStream","response":[{"candidates":[{"content":{"parts":[{"text":"**Preparing File Read**\n\nI'll use read_file.\n","thought":true}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":100,"totalTokenCount":110,"thoughtsTokenCount":10}},{"candidates":[{"content":{"parts":[{"functionCall":{"name":"read_file","args":{"file_path":"test.txt"}}}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":100,"candidatesTokenCount":12,"totalTokenCount":122}}]})"
      "\n"
      R"({"method":"generateContentStream","response":[{"candidates":[{"content":{"parts":[{"text":"The file contains: client content"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":120,"candidatesTokenCount":8,"totalTokenCount":128}}]})"
      "\n";
  TempDir dir;
  auto provider = ReplayProvider::open(dir.write("read.responses", lines));
  REQUIRE(provider.ok());
  auto first = (*provider)->stream(request(), nullptr, CancelToken());
  REQUIRE(first.ok());
  REQUIRE(first->content.parts.size() == 2);
  CHECK(first->content.parts[0].thought);
  CHECK(first->content.parts[1].functionCall->name == "read_file");
  CHECK(first->content.parts[1].functionCall->args.text == R"({"file_path":"test.txt"})");
  CHECK(first->usage->totalTokens == 122);
  auto second = (*provider)->stream(request(), nullptr, CancelToken());
  REQUIRE(second.ok());
  CHECK(textOf(*second) == "The file contains: client content");
}

TEST_CASE("replay: bad files are rejected at open with FILE:LINE", "[replay]") {
  TempDir dir;
  auto expectError = [&](const std::string& content, const std::string& expectedStart) {
    std::string path = dir.write("bad.jsonl", content);
    auto provider = ReplayProvider::open(path);
    REQUIRE_FALSE(provider.ok());
    CHECK(provider.error().code == Errc::parse_error);
    CHECK_THAT(provider.error().message, Catch::StartsWith(path + expectedStart));
  };
  SECTION("malformed JSON on line 3") {
    expectError(streamLine({"a"}) + "\n\n{\"method\": \"generateContentStream\", \"response\": [\n", ":3: not a JSON record");
  }
  SECTION("no method") { expectError(R"({"response":[]})" "\n", ":1: the record has no \"method\" string"); }
  SECTION("no response") { expectError(R"({"method":"generateContentStream"})", ":1: the record has no \"response\""); }
  SECTION("a stream response that is not an array") {
    expectError(streamLine({"a"}) + "\n" + R"({"method":"generateContentStream","response":{}})",
                ":2: a generateContentStream response must be an array");
  }
  SECTION("a chunk that is not an object") {
    expectError(R"({"method":"generateContentStream","response":[{"candidates":[]},7]})",
                ":1: response[1]: expected a GenerateContentResponse object");
  }
  SECTION("not an object") { expectError("[1]\n", ":1: expected a {\"method\", \"response\"} object"); }
  SECTION("a count without totalTokens") {
    expectError(R"({"method":"countTokens","response":{"total":3}})", ":1: a countTokens response needs a totalTokens number");
  }
}

TEST_CASE("replay: a missing file", "[replay]") {
  TempDir dir;
  auto provider = ReplayProvider::open(dir.file("absent.jsonl"));
  REQUIRE_FALSE(provider.ok());
  CHECK(provider.error().code == Errc::not_found);
  CHECK_THAT(provider.error().message, Catch::Contains("absent.jsonl"));
}

TEST_CASE("replay: strict order treats a method mismatch as an error that uses the record", "[replay]") {
  TempDir dir;
  std::string path = dir.write(
      "mixed.jsonl",
      R"({"method":"generateContent","response":{"candidates":[{"content":{"parts":[{"text":"{\"model_choice\":\"flash\"}"}]},"finishReason":"STOP"}]}})"
      "\n" +
          streamLine({"streamed"}) + "\n" + R"({"method":"countTokens","response":{"totalTokens":5}})" + "\n");
  auto provider = ReplayProvider::open(path);
  REQUIRE(provider.ok());
  auto mismatch = (*provider)->stream(request(), nullptr, CancelToken());
  REQUIRE_FALSE(mismatch.ok());
  CHECK(mismatch.error().code == Errc::model);
  CHECK_THAT(mismatch.error().message,
             Catch::StartsWith(path + ":1: the next recorded reply is for generateContent, but the call was "
                                      "generateContentStream"));
  auto next = (*provider)->stream(request(), nullptr, CancelToken());
  REQUIRE(next.ok());
  CHECK(textOf(*next) == "streamed");
  // A token count nobody asked for is skipped, not a mismatch.
  auto after = (*provider)->stream(request(), nullptr, CancelToken());
  REQUIRE_FALSE(after.ok());
  CHECK_THAT(after.error().message, Catch::Contains("has no more recorded model replies"));
}

TEST_CASE("replay: token counts are taken when asked and next, skipped when not asked", "[replay]") {
  TempDir dir;
  const std::string count = R"({"method":"countTokens","response":{"totalTokens":1234}})";
  std::string path =
      dir.write("counts.jsonl", count + "\n" + streamLine({"one"}) + "\n" + count + "\n" + streamLine({"two"}) + "\n");
  auto provider = ReplayProvider::open(path);
  REQUIRE(provider.ok());
  auto counted = (*provider)->countTokens(request(), CancelToken());
  REQUIRE(counted.has_value());
  REQUIRE(counted->ok());
  CHECK(**counted == 1234);
  CHECK_FALSE((*provider)->countTokens(request(), CancelToken()).has_value());  // a stream is next
  CHECK(textOf(*(*provider)->stream(request(), nullptr, CancelToken())) == "one");
  CHECK(textOf(*(*provider)->stream(request(), nullptr, CancelToken())) == "two");  // the count between skipped
  CHECK_FALSE((*provider)->countTokens(request(), CancelToken()).has_value());

  auto byMethod = ReplayProvider::open(path, {ReplayProvider::Order::byMethod});
  REQUIRE(byMethod.ok());
  CHECK(textOf(*(*byMethod)->stream(request(), nullptr, CancelToken())) == "one");
  CHECK(**(*byMethod)->countTokens(request(), CancelToken()) == 1234);
  CHECK(**(*byMethod)->countTokens(request(), CancelToken()) == 1234);
  CHECK_FALSE((*byMethod)->countTokens(request(), CancelToken()).has_value());
}

TEST_CASE("recording: a token count is recorded and replays", "[replay][recording]") {
  struct CountingProvider : ScriptedProvider {
    std::optional<Result<int64_t>> countTokens(const ModelRequest&, const CancelToken&) override {
      return Result<int64_t>(int64_t{777});
    }
  };
  TempDir dir;
  std::string path = dir.file("counted.jsonl");
  auto recorder = RecordingProvider::open(std::make_shared<CountingProvider>(), path);
  REQUIRE(recorder.ok());
  CHECK(**(*recorder)->countTokens(request(), CancelToken()) == 777);
  CHECK(readFile(path) == "{\"method\":\"countTokens\",\"response\":{\"totalTokens\":777}}\n");
  // A provider without a count endpoint records nothing.
  auto plain = RecordingProvider::open(std::make_shared<ScriptedProvider>(), dir.file("plain.jsonl"));
  REQUIRE(plain.ok());
  CHECK_FALSE((*plain)->countTokens(request(), CancelToken()).has_value());
  CHECK(readFile(dir.file("plain.jsonl")).empty());
  auto replay = ReplayProvider::open(path);
  REQUIRE(replay.ok());
  CHECK(**(*replay)->countTokens(request(), CancelToken()) == 777);
}

TEST_CASE("replay: non-strict order picks records by method", "[replay]") {
  TempDir dir;
  std::string path = dir.write(
      "mixed.jsonl",
      R"({"method":"generateContent","response":{"candidates":[{"content":{"parts":[{"text":"routed"}]},"finishReason":"STOP"}]}})"
      "\n" +
          streamLine({"one"}) + "\n" + streamLine({"two"}) + "\n");
  auto provider = ReplayProvider::open(path, {ReplayProvider::Order::byMethod});
  REQUIRE(provider.ok());
  auto one = (*provider)->stream(request(), nullptr, CancelToken());
  REQUIRE(one.ok());
  CHECK(textOf(*one) == "one");
  auto routed = (*provider)->generate(request(), CancelToken());
  REQUIRE(routed.ok());
  CHECK(textOf(*routed) == "routed");
  CHECK(routed->finishReason == FinishReason::stop);
  auto two = (*provider)->stream(request(), nullptr, CancelToken());
  REQUIRE(two.ok());
  CHECK(textOf(*two) == "two");
  auto none = (*provider)->generate(request(), CancelToken());
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().message ==
        "--fake-responses-non-strict " + path + " has no more recorded generateContent replies (3 used)");
}

TEST_CASE("replay: a cancelled call uses no record", "[replay]") {
  TempDir dir;
  auto provider = ReplayProvider::open(dir.write("r.jsonl", streamLine({"kept"})));
  REQUIRE(provider.ok());
  CancelToken cancel = CancelToken::create();
  cancel.cancel();
  auto cancelled = (*provider)->stream(request(), nullptr, cancel);
  REQUIRE_FALSE(cancelled.ok());
  CHECK(cancelled.error().code == Errc::cancelled);
  CHECK((*provider)->remaining() == 1);
  auto reply = (*provider)->stream(request(), nullptr, CancelToken());
  REQUIRE(reply.ok());
  CHECK(textOf(*reply) == "kept");
}

TEST_CASE("replay: concurrent callers each get a different record", "[replay]") {
  TempDir dir;
  constexpr int kRecords = 40;
  std::string content;
  for (int i = 0; i < kRecords; ++i) content += streamLine({"r" + std::to_string(i)}) + "\n";
  auto provider = ReplayProvider::open(dir.write("many.jsonl", content));
  REQUIRE(provider.ok());
  std::mutex mutex;
  std::multiset<std::string> got;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kRecords / 4; ++i) {
        auto reply = (*provider)->stream(request(), nullptr, CancelToken());
        std::lock_guard lock(mutex);
        got.insert(reply.ok() ? textOf(*reply) : "error");
      }
    });
  }
  for (auto& t : threads) t.join();
  std::set<std::string> distinct(got.begin(), got.end());
  CHECK(got.size() == static_cast<size_t>(kRecords));
  CHECK(distinct.size() == static_cast<size_t>(kRecords));
  CHECK(got.count("error") == 0);
}

TEST_CASE("record then replay gives the same chunks", "[replay][recording]") {
  TempDir dir;
  auto scripted = std::make_shared<ScriptedProvider>();
  scripted->chunks = {
      chunkFrom(R"({ "candidates": [ { "content": { "role": "model", "parts": [
          { "text": "Let me look.", "thought": true } ] } } ],
          "usageMetadata": { "promptTokenCount": 9 }, "modelVersion": "gemini-2.5-flash" })"),
      chunkFrom(R"({"candidates":[{"content":{"role":"model","parts":[
          {"functionCall":{"name":"glob","args":{"pattern":"**/*.h"},"id":"c1"},"thoughtSignature":"U2ln"}]},
          "finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":4,"totalTokenCount":13}})"),
  };
  ModelChunk synthetic;  // a chunk from a provider with no Gemini payload
  synthetic.parts.push_back(Part::makeText("tail"));
  synthetic.finishReason = FinishReason::stop;
  scripted->chunks.push_back(synthetic);

  std::string path = dir.file("recorded.jsonl");
  auto recorder = RecordingProvider::open(scripted, path);
  REQUIRE(recorder.ok());

  std::vector<ModelChunk> live;
  auto liveReply = (*recorder)->stream(request(), [&](const ModelChunk& c) { live.push_back(c); }, CancelToken());
  REQUIRE(liveReply.ok());
  REQUIRE(live.size() == 3);

  // A failed call and a cancelled call are not recorded.
  scripted->failAtEnd = true;
  REQUIRE_FALSE((*recorder)->stream(request(), nullptr, CancelToken()).ok());
  scripted->failAtEnd = false;
  CancelToken cancelled = CancelToken::create();
  cancelled.cancel();
  REQUIRE_FALSE((*recorder)->stream(request(), nullptr, cancelled).ok());

  // A second successful call appends a second line.
  scripted->chunks = {chunkFrom(R"({"candidates":[{"content":{"parts":[{"text":"again"}]},"finishReason":"STOP"}]})")};
  REQUIRE((*recorder)->stream(request(), nullptr, CancelToken()).ok());

  std::string text = readFile(path);
  CHECK(countLines(text) == 2);
  CHECK(text.starts_with(R"({"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me look.","thought":true}]}}],"usageMetadata":{"promptTokenCount":9},"modelVersion":"gemini-2.5-flash"},)"));

  auto replay = ReplayProvider::open(path);
  REQUIRE(replay.ok());
  std::vector<ModelChunk> replayed;
  auto replayReply = (*replay)->stream(request(), [&](const ModelChunk& c) { replayed.push_back(c); }, CancelToken());
  REQUIRE(replayReply.ok());
  REQUIRE(replayed.size() == live.size());
  for (size_t i = 0; i < live.size(); ++i) {
    INFO("chunk " << i);
    REQUIRE(replayed[i].parts.size() == live[i].parts.size());
    for (size_t j = 0; j < live[i].parts.size(); ++j) {
      const Part& a = live[i].parts[j];
      const Part& b = replayed[i].parts[j];
      CHECK(a.text == b.text);
      CHECK(a.thought == b.thought);
      CHECK(a.thoughtSignature == b.thoughtSignature);
      REQUIRE(a.functionCall.has_value() == b.functionCall.has_value());
      if (a.functionCall) {
        CHECK(a.functionCall->name == b.functionCall->name);
        CHECK(a.functionCall->id == b.functionCall->id);
        CHECK(a.functionCall->args.text == b.functionCall->args.text);
      }
    }
    CHECK(live[i].finishReason == replayed[i].finishReason);
    REQUIRE(live[i].usage.has_value() == replayed[i].usage.has_value());
    if (live[i].usage) CHECK(live[i].usage->totalTokens == replayed[i].usage->totalTokens);
  }
  CHECK(textOf(*replayReply) == textOf(*liveReply));

  auto again = (*replay)->stream(request(), nullptr, CancelToken());
  REQUIRE(again.ok());
  CHECK(textOf(*again) == "again");
}

TEST_CASE("recording: an unwritable path fails at open", "[recording]") {
  TempDir dir;
  auto recorder = RecordingProvider::open(std::make_shared<ScriptedProvider>(), dir.file("no/such/dir/x.jsonl"));
  REQUIRE_FALSE(recorder.ok());
  CHECK(recorder.error().code == Errc::io);
  CHECK_THAT(recorder.error().message, Catch::Contains("--record-responses"));
}

TEST_CASE("recording appends to an existing file", "[recording]") {
  TempDir dir;
  std::string path = dir.write("existing.jsonl", streamLine({"old"}) + "\n");
  auto scripted = std::make_shared<ScriptedProvider>();
  scripted->chunks = {chunkFrom(R"({"candidates":[{"content":{"parts":[{"text":"new"}]},"finishReason":"STOP"}]})")};
  {
    auto recorder = RecordingProvider::open(scripted, path);
    REQUIRE(recorder.ok());
    REQUIRE((*recorder)->stream(request(), nullptr, CancelToken()).ok());
  }
  auto replay = ReplayProvider::open(path);
  REQUIRE(replay.ok());
  CHECK(textOf(*(*replay)->stream(request(), nullptr, CancelToken())) == "old");
  CHECK(textOf(*(*replay)->stream(request(), nullptr, CancelToken())) == "new");
}
