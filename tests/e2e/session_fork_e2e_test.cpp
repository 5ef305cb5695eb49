// End-to-end: session/fork (unstable). A fork is a new session whose
// conversation starts as a copy of the original's: the model sees the
// original's exchanges in the fork's requests, and from then on each goes its
// own way (neither sees the other's prompts). The fork is recorded, listed and
// loaded like any session; a session only recorded on disk forks too; a turn
// under way is left out; unknown ids and sessions open elsewhere are refused.
#include <map>

#include "tests/e2e/e2e_support.h"

namespace lathe::testing::e2e {
namespace {

std::string sessionParams(const std::string& sid, const std::string& cwd, const std::vector<std::string>& roots = {}) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sid);
    json::put(w, "cwd", cwd);
    if (!roots.empty()) {
      json::array(w, "additionalDirectories", [&] {
        for (const auto& root : roots) json::str(w, root);
      });
    }
    json::put(w, "mcpServers", json::Raw{"[]"});
    w.EndObject();
  });
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++count;
  return count;
}

// The id of a session/fork answer, empty when it failed.
std::string forkedId(const Message& response) {
  const json::Value* result = response ? member(*response, "result") : nullptr;
  return result ? json::getStr(*result, "sessionId").value_or("") : "";
}

// The session/update notifications for `sid` that came before `response`
// (from the message at index `from` on).
std::vector<Message> updatesBefore(const AcpTestClient& client, const std::string& sid, const Message& response,
                                   size_t from = 0) {
  const int64_t responseId = json::getInt(*response, "id").value_or(-1);
  std::vector<Message> out;
  const std::vector<Message> all = client.messages();
  for (size_t i = from; i < all.size(); ++i) {
    const Message& m = all[i];
    const json::Value* id = member(*m, "id");
    if (id && id->IsInt64() && id->GetInt64() == responseId && !json::getStr(*m, "method")) break;
    if (json::getStr(*m, "method").value_or("") == "session/update" && sessionOf(m) == sid) out.push_back(m);
  }
  return out;
}

std::vector<std::string> userTexts(const std::vector<Message>& updates) {
  std::vector<std::string> texts;
  for (const auto& m : ofKind(updates, "user_message_chunk")) texts.push_back(chunkText(m));
  return texts;
}

std::string lastModelRequest(const FakeGeminiServer& fake) { return fake.generateRequests().back().body; }

// session/list's title of each listed session, by id.
std::map<std::string, std::string> listedTitles(AcpTestClient& client, const std::string& paramsJson = "{}") {
  std::map<std::string, std::string> titles;
  Message list = client.call("session/list", paramsJson);
  const json::Value* result = list ? member(*list, "result") : nullptr;
  const json::Value* sessions = result ? member(*result, "sessions") : nullptr;
  if (!sessions || !sessions->IsArray()) return titles;
  for (const auto& info : sessions->GetArray()) {
    titles[json::getStr(info, "sessionId").value_or("")] = json::getStr(info, "title").value_or("");
  }
  return titles;
}

}  // namespace

TEST_CASE("e2e: session/fork copies the conversation, then fork and original go their own ways", "[e2e][fork]") {
  TempDir ws, state;
  auto fake = startFake();
  std::string sid, fid;
  {
    auto agent = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
    AcpTestClient client(*agent);
    Message init = client.initialize();
    REQUIRE(init);
    const json::Value& caps = *member(*member(*init, "result"), "agentCapabilities");
    CHECK(member(*member(caps, "sessionCapabilities"), "fork"));

    sid = client.newSession(ws.str());
    REQUIRE_FALSE(sid.empty());
    fake->push(ScriptedReply::text("Answer ALPHA-ONE."));
    REQUIRE(client.prompt(sid, "First question ALPHA").stopReason == "end_turn");
    REQUIRE(waitForTitle(client, sid));
    fake->push(ScriptedReply::text("Answer BRAVO-TWO."));
    REQUIRE(client.prompt(sid, "Second question BRAVO").stopReason == "end_turn");

    Message forked = client.call("session/fork", sessionParams(sid, ws.str()));
    INFO("lathe stderr:\n" << agent->stderrText());
    fid = forkedId(forked);
    REQUIRE_FALSE(fid.empty());
    CHECK(fid != sid);
    const json::Value* modes = member(*member(*forked, "result"), "modes");
    REQUIRE(modes);
    CHECK(json::getStr(*modes, "currentModeId").value_or("") == "default");
    CHECK(member(*member(*forked, "result"), "configOptions"));
    // Nothing replayed: the editor that forked has the conversation already.
    CHECK(ofKind(updatesBefore(client, fid, forked), "user_message_chunk").empty());
    // Listed at once, under the original's title until the model names it.
    CHECK(listedTitles(client) ==
          std::map<std::string, std::string>{{sid, "Fake session title"}, {fid, "Fake session title"}});
    FakeGeminiOptions titled;
    titled.titleReply = "The fork's own title";
    fake->setOptions(titled);

    // The fork's model request carries the original's conversation, once.
    fake->push(ScriptedReply::text("Fork answer CHARLIE-THREE."));
    PromptOutcome inFork = client.prompt(fid, "Fork question CHARLIE");
    REQUIRE(inFork.stopReason == "end_turn");
    for (const auto& m : inFork.updates) CHECK(sessionOf(m) == fid);
    std::string body = lastModelRequest(*fake);
    CHECK(occurrences(body, "First question ALPHA") == 1);
    CHECK(occurrences(body, "Answer ALPHA-ONE.") == 1);
    CHECK(occurrences(body, "Second question BRAVO") == 1);
    CHECK(occurrences(body, "Answer BRAVO-TWO.") == 1);
    CHECK(occurrences(body, "Fork question CHARLIE") == 1);

    // The original never sees what the fork was asked.
    fake->push(ScriptedReply::text("Original answer DELTA-FOUR."));
    REQUIRE(client.prompt(sid, "Original question DELTA").stopReason == "end_turn");
    body = lastModelRequest(*fake);
    CHECK(occurrences(body, "Second question BRAVO") == 1);
    CHECK(occurrences(body, "Original question DELTA") == 1);
    CHECK(occurrences(body, "CHARLIE") == 0);

    // The fork's metadata is its own: named after its first turn, the original's name unchanged.
    REQUIRE(waitForTitle(client, fid));
    CHECK(listedTitles(client) ==
          std::map<std::string, std::string>{{sid, "Fake session title"}, {fid, "The fork's own title"}});
    checkAgainstSchema(client, AcpSchema::unstable);
    finish(*agent);
  }

  // A new process loads the fork and shows it its own history, then the original.
  auto agent = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  Message loaded = client.call("session/load", sessionParams(fid, ws.str()));
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(member(*loaded, "result"));
  std::vector<Message> replay = updatesBefore(client, fid, loaded);
  CHECK(userTexts(replay) ==
        std::vector<std::string>{"First question ALPHA", "Second question BRAVO", "Fork question CHARLIE"});
  CHECK(joinedText(replay, "agent_message_chunk") == "Answer ALPHA-ONE.Answer BRAVO-TWO.Fork answer CHARLIE-THREE.");
  // Everything replayed is the fork's: nothing under the original's id.
  for (const auto& m : client.notifications()) CHECK(sessionOf(m) != sid);

  fake->push(ScriptedReply::text("Loaded fork answer."));
  REQUIRE(client.prompt(fid, "Loaded fork question ECHO").stopReason == "end_turn");
  std::string body = lastModelRequest(*fake);
  CHECK(occurrences(body, "Fork question CHARLIE") == 1);
  CHECK(occurrences(body, "DELTA") == 0);

  Message original = client.call("session/load", sessionParams(sid, ws.str()));
  REQUIRE(member(*original, "result"));
  CHECK(userTexts(updatesBefore(client, sid, original)) ==
        std::vector<std::string>{"First question ALPHA", "Second question BRAVO", "Original question DELTA"});
  checkAgainstSchema(client, AcpSchema::unstable);
  finish(*agent);
}

TEST_CASE("e2e: a session only recorded on disk forks, and bad forks are clear errors", "[e2e][fork]") {
  TempDir ws, state;
  auto fake = startFake();
  std::string sid;
  {
    auto agent = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
    AcpTestClient client(*agent);
    REQUIRE(client.initialize());
    sid = client.newSession(ws.str());
    fake->push(ScriptedReply::text("Recorded answer GOLF."));
    REQUIRE(client.prompt(sid, "Recorded question GOLF").stopReason == "end_turn");
    finish(*agent);
  }

  auto agent = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  // Forked into another folder: the fork's workspace is the request's, as a session/new's would be.
  TempDir elsewhereWs;
  writeFile(elsewhereWs.path / "notes.txt", "Only the fork's folder has NOVEMBER-42.\n");
  Message forked = client.call("session/fork", sessionParams(sid, elsewhereWs.str(), {ws.str()}));
  INFO("lathe stderr:\n" << agent->stderrText());
  const std::string fid = forkedId(forked);
  REQUIRE_FALSE(fid.empty());
  fake->push(ScriptedReply::functionCall("read_file", R"({"file_path":"notes.txt"})"));
  fake->push(ScriptedReply::text("Fork of the recorded one."));
  PromptOutcome inFork = client.prompt(fid, "Fork question HOTEL");
  REQUIRE(inFork.stopReason == "end_turn");
  std::string body = lastModelRequest(*fake);
  CHECK(occurrences(body, "Recorded question GOLF") == 1);
  CHECK(occurrences(body, "Recorded answer GOLF.") == 1);
  CHECK(occurrences(body, "NOVEMBER-42") == 1);
  CHECK(listedTitles(client, R"({"cwd":")" + elsewhereWs.str() + "\"}").count(fid) == 1);
  CHECK(listedTitles(client, R"({"cwd":")" + ws.str() + "\"}").count(fid) == 0);
  Message listed = client.call("session/list", R"({"cwd":")" + elsewhereWs.str() + "\"}");
  const json::Value& info = (*member(*member(*listed, "result"), "sessions"))[0];
  REQUIRE(member(info, "additionalDirectories"));
  CHECK(json::stringify(*member(info, "additionalDirectories")) == json::build([&](json::Writer& w) {
          w.StartArray();
          json::str(w, ws.str());
          w.EndArray();
        }));
  // The original was only read: another process may load it, and it never heard of HOTEL.
  {
    auto other = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
    AcpTestClient second(*other);
    REQUIRE(second.initialize());
    Message loaded = second.call("session/load", sessionParams(sid, ws.str()));
    REQUIRE(member(*loaded, "result"));
    CHECK(userTexts(second.notifications()) == std::vector<std::string>{"Recorded question GOLF"});
    // The fork is open in the first process: this one may not copy it (it could be mid-turn there).
    Message elsewhere = second.call("session/fork", sessionParams(fid, ws.str()));
    CHECK(errorMessage(elsewhere).find("open in another Lathe process") != std::string::npos);
    CHECK(errorCode(elsewhere) == -32602);
    finish(*other);
  }

  Message unknown = client.call("session/fork", sessionParams("sess_00000000unknown", ws.str()));
  CHECK(errorMessage(unknown).find("sess_00000000unknown") != std::string::npos);
  CHECK(errorMessage(unknown).find("no recorded session") != std::string::npos);
  CHECK(errorCode(unknown) == -32002);
  Message hostile = client.call("session/fork", sessionParams("../../etc", ws.str()));
  CHECK(errorCode(hostile) == -32602);
  Message badCwd = client.call("session/fork", sessionParams(sid, (ws.path / "missing").string()));
  CHECK(errorMessage(badCwd).find("params.cwd") != std::string::npos);
  // The failed forks left nothing behind: the original and its one fork are listed.
  Message list = client.call("session/list", "{}");
  REQUIRE(member(*list, "result"));
  CHECK(member(*member(*list, "result"), "sessions")->Size() == 2);
  checkAgainstSchema(client, AcpSchema::unstable);
  // Last: the schema check would rightly refuse this request itself.
  Message noId = client.call("session/fork", R"({"cwd":")" + ws.str() + "\"}");
  CHECK(errorCode(noId) == -32602);
  CHECK(errorMessage(noId).find("sessionId") != std::string::npos);
  finish(*agent);
}

TEST_CASE("e2e: forking a session mid-turn copies it as its last turn left it", "[e2e][fork]") {
  TempDir ws, state;
  auto fake = startFake();
  auto agent = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  fake->push(ScriptedReply::text("Settled answer INDIA."));
  REQUIRE(client.prompt(sid, "Settled question INDIA").stopReason == "end_turn");
  fake->push(ScriptedReply::hang());
  int64_t running = client.request("session/prompt", promptParams(sid, "Running question JULIET"));
  REQUIRE(fake->waitForRequests(2, 10s));

  Message forked = client.call("session/fork", sessionParams(sid, ws.str()));
  INFO("lathe stderr:\n" << agent->stderrText());
  const std::string fid = forkedId(forked);
  REQUIRE_FALSE(fid.empty());
  client.cancel(sid);
  REQUIRE(stopReasonOf(client.waitResponse(running)) == "cancelled");

  fake->push(ScriptedReply::text("Fork answer KILO."));
  REQUIRE(client.prompt(fid, "Fork question KILO").stopReason == "end_turn");
  std::string body = lastModelRequest(*fake);
  CHECK(occurrences(body, "Settled question INDIA") == 1);
  CHECK(occurrences(body, "Settled answer INDIA.") == 1);
  CHECK(occurrences(body, "JULIET") == 0);
  CHECK(occurrences(body, "Fork question KILO") == 1);

  // Its record replays the settled turn and its own, nothing of the cancelled one.
  REQUIRE(member(*client.call("session/close", R"({"sessionId":")" + fid + "\"}"), "result"));
  const size_t before = client.messages().size();
  Message loaded = client.call("session/load", sessionParams(fid, ws.str()));
  REQUIRE(member(*loaded, "result"));
  std::vector<Message> replay = updatesBefore(client, fid, loaded, before);
  CHECK(userTexts(replay) == std::vector<std::string>{"Settled question INDIA", "Fork question KILO"});
  checkAgainstSchema(client, AcpSchema::unstable);
  finish(*agent);
}

TEST_CASE("e2e: a fork into a workspace with programs waits for its consent as a new session does", "[e2e][fork]") {
  PrivateHome home;
  TempDir plain, programs;
  const fs::path marker = home.home.path / "discovery-ran";
  const std::string script = std::string(LATHE_SOURCE_DIR) + "/tests/support/discovery_tool.sh";
  writeFile(programs.path / ".gemini/settings.json", json::buildObject([&](json::Writer& w) {
              json::object(w, "tools", [&] {
                json::put(w, "discoveryCommand", "bash '" + script + "' discover bare '" + marker.string() + "'");
                json::put(w, "callCommand", "bash '" + script + "' call");
              });
            }));
  HomeAgent agent(home, "reject_once");
  AcpTestClient& client = *agent.client;
  std::string sid = client.newSession(plain.str());
  agent.fake->push(ScriptedReply::text("Plain answer."));
  REQUIRE(client.prompt(sid, "In the plain folder").stopReason == "end_turn");
  CHECK(permissionRequests(client).empty());

  Message forked = client.call("session/fork", sessionParams(sid, programs.str()));
  INFO("lathe stderr:\n" << agent.lathe->stderrText());
  const std::string fid = forkedId(forked);
  REQUIRE_FALSE(fid.empty());
  CHECK_FALSE(fs::exists(marker));  // the fork starts nothing before it is asked
  agent.fake->push(ScriptedReply::text("Fork answer."));
  REQUIRE(client.prompt(fid, "In the folder with programs").stopReason == "end_turn");
  auto asks = permissionRequests(client);
  REQUIRE(asks.size() == 1);
  CHECK(json::getStr(*member(*asks[0], "params"), "sessionId").value_or("") == fid);
  CHECK_THAT(json::stringify(*asks[0]), Catch::Contains("workspace's settings"));
  CHECK_FALSE(fs::exists(marker));  // refused: never run
  CHECK_THAT(lastModelRequest(*agent.fake), Catch::Contains("In the plain folder"));
}

TEST_CASE("e2e: a fork can rewind the prompts it was forked with and its own, the original untouched", "[e2e][fork]") {
  PrivateHome home;
  TempDir ws;
  HomeAgent agent(home, "allow_once");
  AcpTestClient& client = *agent.client;
  const std::string sid = client.newSession(ws.str());
  agent.fake->push(ScriptedReply::text("Original answer."));
  REQUIRE(client.prompt(sid, "Original words LIMA").stopReason == "end_turn");
  const std::string fid = forkedId(client.call("session/fork", sessionParams(sid, ws.str())));
  INFO("lathe stderr:\n" << agent.lathe->stderrText());
  REQUIRE_FALSE(fid.empty());
  agent.fake->push(ScriptedReply::text("Fork answer."));
  REQUIRE(client.prompt(fid, "Fork words MIKE").stopReason == "end_turn");

  PromptOutcome listed = client.prompt(fid, "/rewind");
  REQUIRE(listed.stopReason == "end_turn");
  const std::string list = joinedText(listed.updates, "agent_message_chunk");
  CHECK_THAT(list, Catch::Contains("1. \u201cOriginal words LIMA\u201d"));
  CHECK_THAT(list, Catch::Contains("2. \u201cFork words MIKE\u201d"));
  REQUIRE(client.prompt(fid, "/undo").stopReason == "end_turn");
  agent.fake->push(ScriptedReply::text("ok"));
  REQUIRE(client.prompt(fid, "After the undo").stopReason == "end_turn");
  std::string body = lastModelRequest(*agent.fake);
  CHECK(occurrences(body, "Original words LIMA") == 1);
  CHECK(occurrences(body, "MIKE") == 0);

  agent.fake->push(ScriptedReply::text("ok"));
  REQUIRE(client.prompt(sid, "The original goes on").stopReason == "end_turn");
  body = lastModelRequest(*agent.fake);
  CHECK(occurrences(body, "Original words LIMA") == 1);
  CHECK(occurrences(body, "MIKE") == 0);
  CHECK(occurrences(body, "After the undo") == 0);
}

}  // namespace lathe::testing::e2e
