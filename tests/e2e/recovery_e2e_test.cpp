// End-to-end tests of a session that keeps working when things go wrong or
// are unusual: a model reply larger than the context window, /compress on a
// short conversation, retries of an unreachable model told as they happen,
// and prompts made of several text blocks.
#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

std::string writeArgs(const std::string& path, const std::string& content) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "file_path", path);
    json::put(w, "content", content);
    w.EndObject();
  });
}

// A text of `bytes` bytes that does not compress into few tokens.
std::string bulkText(size_t bytes) {
  std::string text;
  for (size_t i = 0; text.size() < bytes; ++i) text += "line " + std::to_string(i * 7919 % 100003) + " of the file\n";
  return text;
}

struct Session {
  TempDir ws;
  TempDir home;
  std::unique_ptr<FakeGeminiServer> fake = startFake();
  std::unique_ptr<Subprocess> lathe;
  std::unique_ptr<AcpTestClient> client;
  std::string id;
  explicit Session(const std::string& settingsJson = "{}") {
    writeFile(home.path / "settings.json", settingsJson);
    lathe = startLathe(*fake, LatheOptions{{"--settings", (home.path / "settings.json").string(), "--yolo"}});
    client = std::make_unique<AcpTestClient>(*lathe);
    client->initialize();
    id = client->newSession(ws.str());
    REQUIRE_FALSE(id.empty());
  }
  ~Session() {
    client.reset();
    if (lathe) finish(*lathe);
  }
};

}  // namespace

TEST_CASE("e2e recovery: a call larger than the context window is shortened in the history and the session goes on",
          "[e2e][context]") {
  Session s(R"({"model": {"contextLimits": {"gemini-e2e-model": 32768}}})");
  const std::string big = bulkText(160 * 1024);
  s.fake->push(ScriptedReply::functionCall("write_file", writeArgs("big.txt", big)));
  s.fake->push(ScriptedReply::text("Written."));
  auto first = s.client->prompt(s.id, "write the big file");
  INFO("lathe stderr:\n" << s.lathe->stderrText());
  CHECK(first.stopReason == "end_turn");
  // The whole text was written; the model's next request carries a short form of it.
  auto writes = s.client->writes();
  REQUIRE(writes.size() == 1);
  CHECK(writes[0].content == big);
  auto requests = s.fake->generateRequests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[1].body.size() < 64 * 1024);
  CHECK(requests[1].body.find("left out by Lathe afterwards") != std::string::npos);

  // Later prompts reach the model too.
  s.fake->push(ScriptedReply::text("Still here."));
  auto second = s.client->prompt(s.id, "are you there?");
  CHECK(second.stopReason == "end_turn");
  CHECK(s.fake->generateRequests().size() == 3);
  CHECK(s.fake->violations().empty());
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e recovery: /compress on a short conversation shortens what is large and updates the context meter",
          "[e2e][context]") {
  Session s;
  // The model's call ran, then the API refused the next request: the
  // conversation ends with the call's answer, too short to summarise.
  s.fake->push(ScriptedReply::functionCall("write_file", writeArgs("big.txt", bulkText(60 * 1024))));
  s.fake->push(ScriptedReply::error(400, R"({"error":{"code":400,"message":"bad request","status":"INVALID_ARGUMENT"}})"));
  REQUIRE(s.client->prompt(s.id, "write it").error);

  auto compressed = s.client->prompt(s.id, "/compress");
  CHECK(compressed.stopReason == "end_turn");
  const std::string said = joinedText(compressed.updates, "agent_message_chunk");
  CHECK(said.find("too short to summarise; shortened 1") != std::string::npos);
  CHECK(said.find("Nothing to compress") == std::string::npos);
  // The meter follows at once.
  auto meters = ofKind(compressed.updates, "usage_update");
  REQUIRE(meters.size() == 1);
  const json::Value* used = member(*updateOf(meters[0]), "used");
  REQUIRE(used);
  CHECK(used->GetInt64() < 15000);

  // Nothing left to shorten: said so, and nothing else changes.
  auto again = s.client->prompt(s.id, "/compress");
  CHECK(joinedText(again.updates, "agent_message_chunk").find("Nothing to compress") != std::string::npos);
  CHECK(ofKind(again.updates, "usage_update").empty());
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e recovery: automatic compression with nothing to do says nothing to the person", "[e2e][context]") {
  // Compression is due at once (a tiny threshold), but there is nothing to compress.
  Session s(R"({"model": {"compressionThreshold": 0.0001}})");
  s.fake->push(ScriptedReply::text("Hello."));
  auto turn = s.client->prompt(s.id, "hi");
  CHECK(turn.stopReason == "end_turn");
  CHECK(joinedText(turn.updates, "agent_message_chunk") == "Hello.");
}

TEST_CASE("e2e recovery: retries of a failing model are told to the person as they happen", "[e2e][context]") {
  Session s;
  s.fake->push(ScriptedReply::error(503, R"({"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}})", "0"));
  s.fake->push(ScriptedReply::text("Answered."));
  auto turn = s.client->prompt(s.id, "hello");
  CHECK(turn.stopReason == "end_turn");
  // A card of its own, not the answer (and so never recorded or replayed as one).
  CHECK(joinedText(turn.updates, "agent_message_chunk") == "Answered.");
  auto cards = ofKind(turn.updates, "tool_call");
  REQUIRE(cards.size() == 1);
  CHECK(field(cards[0], "title") == "Lathe is retrying the model request");
  auto told = ofKind(turn.updates, "tool_call_update");
  REQUIRE(told.size() == 1);
  const std::string notice = json::stringify(*updateOf(told[0]));
  CHECK(notice.find("overloaded") != std::string::npos);
  CHECK(notice.find("Lathe tries again in") != std::string::npos);
  CHECK(notice.find("(attempt 2 of") != std::string::npos);
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e recovery: a prompt of several text blocks keeps them apart for the model and the replay",
          "[e2e][context]") {
  TempDir state;
  std::string id;
  TempDir ws;
  auto fake = startFake();
  {
    auto lathe = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
    AcpTestClient client(*lathe);
    client.initialize();
    id = client.newSession(ws.str());
    fake->push(ScriptedReply::text("Yes."));
    auto turn = client.promptBlocks(
        id, R"([{"type":"text","text":"Fix this, please."},{"type":"text","text":"Are you sure?"}])");
    CHECK(turn.stopReason == "end_turn");
    auto requests = fake->generateRequests();
    REQUIRE(requests.size() == 1);
    CHECK(requests[0].body.find("Fix this, please.\\n\\nAre you sure?") != std::string::npos);
    finish(*lathe);
  }
  auto lathe = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
  AcpTestClient client(*lathe);
  client.initialize();
  auto loaded = client.call("session/load", R"({"sessionId":")" + id + R"(","cwd":")" + ws.str() + R"(","mcpServers":[]})");
  REQUIRE(member(*loaded, "result"));
  CHECK(joinedText(client.notifications(), "user_message_chunk") == "Fix this, please.\n\nAre you sure?");
  finish(*lathe);
}
