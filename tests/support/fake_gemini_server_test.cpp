// Tests of the fake Gemini server and its history checker (test support code).
#include <catch2/catch.hpp>
#include <httplib.h>

#include <atomic>
#include <cstdio>
#include <fstream>

#include "protocol/base/json.h"
#include "tests/support/fake_gemini_server.h"
#include "tests/support/gemini_chunks.h"
#include "tests/support/history_invariants.h"

using namespace lathe;
using namespace lathe::testing;

namespace {

const char* kStreamPath = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse";

std::string userText(const std::string& text) {
  return R"({"role":"user","parts":[{"text":")" + text + R"("}]})";
}

std::string body(const std::string& contents) { return R"({"contents":[)" + contents + "]}"; }

const std::string kCall = R"({"role":"model","parts":[{"functionCall":{"name":"read_file","args":{"file_path":"a"}}}]})";
const std::string kAnswer =
    R"({"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"hi"}}}]})";

struct Streamed {
  std::vector<std::string> pieces;  // data as it arrived
  int status = 0;
  bool ok = false;
};

// Posts and collects the body piece by piece; `stopAfter` pieces ends early.
Streamed post(int port, const std::string& target, const std::string& payload, size_t stopAfter = SIZE_MAX,
              bool withKey = true) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(10);
  httplib::Request req;
  req.method = "POST";
  req.path = target;
  req.body = payload;
  req.set_header("Content-Type", "application/json");
  if (withKey) req.set_header("x-goog-api-key", "test-key");
  Streamed out;
  req.response_handler = [&](const httplib::Response& res) {
    out.status = res.status;
    return true;
  };
  req.content_receiver = [&](const char* data, size_t size, uint64_t, uint64_t) {
    out.pieces.emplace_back(data, size);
    return out.pieces.size() < stopAfter;
  };
  auto result = client.send(req);
  out.ok = static_cast<bool>(result);
  return out;
}

std::string joined(const Streamed& s) {
  std::string all;
  for (const auto& p : s.pieces) all += p;
  return all;
}

}  // namespace

TEST_CASE("history checker accepts an answered function call") {
  CHECK(checkGenerateRequest(body(userText("hi") + "," + kCall + "," + kAnswer)).empty());
}

TEST_CASE("history checker flags a functionCall without its response") {
  auto unanswered = checkGenerateRequest(body(userText("hi") + "," + kCall));
  REQUIRE(unanswered.size() == 1);
  CHECK(unanswered[0].find("no functionResponse") != std::string::npos);

  auto skipped = checkGenerateRequest(body(userText("hi") + "," + kCall + "," + userText("next")));
  REQUIRE_FALSE(skipped.empty());
  CHECK(skipped[0].find("0 functionResponse") != std::string::npos);
}

TEST_CASE("history checker flags mismatched ids, names and roles") {
  std::string callWithId =
      R"({"role":"model","parts":[{"functionCall":{"name":"read_file","args":{},"id":"c1"}}]})";
  std::string wrongId =
      R"({"role":"user","parts":[{"functionResponse":{"name":"read_file","id":"c2","response":{}}}]})";
  std::string wrongName = R"({"role":"user","parts":[{"functionResponse":{"name":"glob","response":{}}}]})";
  CHECK_FALSE(checkGenerateRequest(body(userText("a") + "," + callWithId + "," + wrongId)).empty());
  CHECK_FALSE(checkGenerateRequest(body(userText("a") + "," + kCall + "," + wrongName)).empty());
  CHECK_FALSE(checkGenerateRequest(body(kCall + "," + kAnswer)).empty());  // starts with model
  CHECK_FALSE(checkGenerateRequest(body(userText("a") + "," + kAnswer)).empty());  // answer without call
  std::string text = R"({"role":"model","parts":[{"text":"x"}]})";
  CHECK_FALSE(checkGenerateRequest(body(userText("a") + "," + text + "," + text + "," + userText("b"))).empty());
  CHECK_FALSE(checkGenerateRequest(R"({"contents":[]})").empty());
}

TEST_CASE("fake server rejects a request that breaks the history with 400") {
  FakeGeminiServer server;
  REQUIRE(server.start());
  server.push(ScriptedReply::text("unused"));
  Streamed s = post(server.port(), kStreamPath, body(userText("hi") + "," + kCall));
  CHECK(s.status == 400);
  CHECK(joined(s).find("no functionResponse") != std::string::npos);
  REQUIRE(server.violations().size() == 1);
  CHECK(server.pendingReplies() == 1);  // a rejected request consumes nothing
}

TEST_CASE("fake server requires the API key header") {
  FakeGeminiServer server;
  REQUIRE(server.start());
  Streamed s = post(server.port(), kStreamPath, body(userText("hi")), SIZE_MAX, false);
  CHECK(s.status == 401);
  CHECK(server.violations().size() == 1);
}

TEST_CASE("a streamed reply arrives chunk by chunk") {
  FakeGeminiServer server;
  REQUIRE(server.start());
  // The second chunk only exists after the first was received: the stream
  // hangs after one chunk, so receiving anything proves it was not buffered.
  server.push(ScriptedReply::hang({textChunk("first")}));
  Streamed s = post(server.port(), kStreamPath, body(userText("hi")), 1);
  REQUIRE(s.pieces.size() == 1);
  CHECK(s.status == 200);
  CHECK(s.pieces[0].rfind("data: {", 0) == 0);
  CHECK(s.pieces[0].find("first") != std::string::npos);
  CHECK(s.pieces[0].size() >= 4);
  CHECK(s.pieces[0].substr(s.pieces[0].size() - 4) == "\r\n\r\n");
  // Dropping the connection ends the hang; the server notices.
  CHECK(server.waitForAbandonedStreams(1, std::chrono::seconds(10)));
  CHECK(server.abandonedStreams() == 1);
}

TEST_CASE("a client that leaves during a pause is noticed") {
  FakeGeminiServer server;
  REQUIRE(server.start());
  server.push(ScriptedReply::stream({textChunk("first"), Chunk(textChunk("late"), std::chrono::seconds(60))}));
  Streamed s = post(server.port(), kStreamPath, body(userText("hi")), 1);
  CHECK(s.pieces.size() == 1);
  CHECK(server.waitForAbandonedStreams(1, std::chrono::seconds(10)));
  CHECK(server.abandonedStreams() == 1);
}

TEST_CASE("a paused stream sends its chunks in order, one event each") {
  FakeGeminiServer server;
  REQUIRE(server.start());
  server.push(ScriptedReply::stream({textChunk("a"), Chunk(textChunk("b"), std::chrono::milliseconds(50)),
                                     finishChunk("STOP")}));
  Streamed s = post(server.port(), kStreamPath, body(userText("hi")));
  REQUIRE(s.ok);
  std::string all = joined(s);
  CHECK(all.find("\"a\"") < all.find("\"b\""));
  CHECK(all.find("STOP") != std::string::npos);
  size_t events = 0;
  for (size_t at = all.find("data: "); at != std::string::npos; at = all.find("data: ", at + 1)) ++events;
  CHECK(events == 3);
  REQUIRE(server.requests().size() == 1);
  CHECK(server.requests()[0].model == "gemini-2.5-flash");
  CHECK(server.requests()[0].action == "streamGenerateContent");
  CHECK(server.requests()[0].header("X-Goog-Api-Key") == "test-key");
}

TEST_CASE("verbatim chunks are sent byte for byte") {
  FakeGeminiServer server;
  REQUIRE(server.start());
  server.push(ScriptedReply::stream({Chunk::rawBytes(": comment\n\n"), Chunk::rawBytes("data: {broken\n\n")}));
  Streamed s = post(server.port(), kStreamPath, body(userText("hi")));
  CHECK(joined(s) == ": comment\n\ndata: {broken\n\n");
}

TEST_CASE("scripted errors carry status, body and Retry-After") {
  FakeGeminiServer server;
  REQUIRE(server.start());
  server.push(ScriptedReply::error(429, "slow down", "3"));
  httplib::Client client("127.0.0.1", server.port());
  auto res = client.Post(kStreamPath, {{"x-goog-api-key", "k"}}, body(userText("hi")), "application/json");
  REQUIRE(res);
  CHECK(res->status == 429);
  CHECK(res->get_header_value("Retry-After") == "3");
  CHECK(res->body.find("RESOURCE_EXHAUSTED") != std::string::npos);
  // The script is now empty: the default fallback is a 500.
  auto next = client.Post(kStreamPath, {{"x-goog-api-key", "k"}}, body(userText("hi")), "application/json");
  REQUIRE(next);
  CHECK(next->status == 500);
  CHECK(next->body.find("no scripted reply left") != std::string::npos);
}

TEST_CASE("generateContent merges a streamed reply, countTokens estimates") {
  FakeGeminiServer server;
  REQUIRE(server.start());
  server.push(ScriptedReply::stream({textChunk("Hello "), textChunk("world"), finishChunk("STOP")}));
  httplib::Client client("127.0.0.1", server.port());
  httplib::Headers key{{"x-goog-api-key", "k"}};
  auto res = client.Post("/v1beta/models/m:generateContent", key, body(userText("hi")), "application/json");
  REQUIRE(res);
  auto doc = json::parse(res->body);
  REQUIRE(doc);
  const json::Value& candidate = (*doc)["candidates"][0];
  CHECK(candidate["content"]["parts"].Size() == 2);
  CHECK(json::getStr(candidate, "finishReason") == "STOP");
  CHECK(json::find(*doc, "usageMetadata") != nullptr);

  auto count = client.Post("/v1beta/models/m:countTokens", key, body(userText("hi")), "application/json");
  REQUIRE(count);
  auto counted = json::parse(count->body);
  REQUIRE(counted);
  CHECK(json::getInt(*counted, "totalTokens").value_or(0) > 0);
}

TEST_CASE("auto mode reads a file, then answers Done.") {
  FakeGeminiOptions options;
  options.fallback = FallbackMode::autoTool;
  options.autoReadPath = "/tmp/ws/hello.txt";
  FakeGeminiServer server(options);
  REQUIRE(server.start());
  std::string first = joined(post(server.port(), kStreamPath, body(userText("go"))));
  CHECK(first.find("\"functionCall\"") != std::string::npos);
  CHECK(first.find("/tmp/ws/hello.txt") != std::string::npos);
  std::string second = joined(post(server.port(), kStreamPath, body(userText("go") + "," + kCall + "," + kAnswer)));
  CHECK(second.find("Done.") != std::string::npos);
  CHECK(server.violations().empty());
  CHECK(server.waitForRequests(2, std::chrono::milliseconds(100)));
}

TEST_CASE("a Gemini CLI recording is served in order") {
  std::string path = "/tmp/lathe_replay_test_" + std::to_string(::getpid()) + ".jsonl";
  {
    std::ofstream out(path);
    out << R"({"method":"countTokens","response":{"totalTokens":7}})" << "\n";
    out << R"({"method":"generateContentStream","response":[)" << textChunk("one") << "," << finishChunk() << "]}\n";
    out << R"({"method":"generateContent","response":)" << textChunk("two") << "}\n";
  }
  FakeGeminiServer server;
  REQUIRE(server.loadReplayFile(path));
  std::remove(path.c_str());
  REQUIRE(server.pendingReplies() == 3);
  REQUIRE(server.start());
  // countTokens entries are skipped when a generate call comes first.
  CHECK(joined(post(server.port(), kStreamPath, body(userText("a")))).find("one") != std::string::npos);
  CHECK(joined(post(server.port(), kStreamPath, body(userText("b")))).find("two") != std::string::npos);
  CHECK(server.pendingReplies() == 0);
  CHECK_FALSE(loadReplayFile("/nonexistent/file.jsonl"));
}

TEST_CASE("stop() ends a hanging stream promptly") {
  FakeGeminiServer server;
  REQUIRE(server.start());
  server.push(ScriptedReply::hang({textChunk("partial")}));
  std::atomic<bool> done{false};
  std::thread client([&] {
    post(server.port(), kStreamPath, body(userText("hi")));
    done = true;
  });
  REQUIRE(server.waitForRequests(1, std::chrono::seconds(5)));
  server.stop();
  client.join();
  CHECK(done);
}
