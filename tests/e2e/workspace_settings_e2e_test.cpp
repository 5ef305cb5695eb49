// End-to-end: an ACP session applies its workspace's .gemini/settings.json
// (engine/config/workspace_settings.h). Narrowing keys (tools.exclude) apply
// at once and per session; widening ones (tools.allowed, a yolo mode) wait
// for the workspace consent question, --trust-workspace, or a remembered
// "always"; a broken file is told once and the session goes on with the
// person's settings; session/load applies them as session/new does. Every
// run has its own HOME and XDG_STATE_HOME.
#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

using Home = PrivateHome;
using Agent = HomeAgent;

// Whether the model was offered a tool of this name in that request.
bool declares(const std::string& body, const std::string& tool) {
  return body.find("\"name\":\"" + tool + "\"") != std::string::npos;
}

const char* kAllowShell = R"({"tools": {"allowed": ["run_shell_command"]}})";

// The model asks to create made.txt with the shell, then answers.
PromptOutcome shellTurn(Agent& agent, const std::string& session) {
  agent.fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("touch made.txt")));
  agent.fake->push(ScriptedReply::text("done"));
  return agent.client->prompt(session, "make a file");
}

std::string newSessionMode(AcpTestClient& client, const std::string& cwd) {
  Message response = client.call("session/new", json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "cwd", cwd);
    json::put(w, "mcpServers", json::Raw{"[]"});
    w.EndObject();
  }));
  REQUIRE(response);
  const json::Value* result = member(*response, "result");
  REQUIRE(result);
  const json::Value* modes = member(*result, "modes");
  REQUIRE(modes);
  return json::getStr(*modes, "currentModeId").value_or("");
}

}  // namespace

TEST_CASE("e2e workspace settings: tools.exclude removes a tool from this session's declarations only",
          "[e2e][wsettings]") {
  Home home;
  TempDir ws;
  TempDir plain;
  writeFile(ws.path / ".gemini/settings.json", R"({"tools": {"exclude": ["write_file"]}} // narrowing)");
  Agent agent(home, "reject_once");
  std::string excluded = agent.client->newSession(ws.str());
  std::string other = agent.client->newSession(plain.str());
  REQUIRE_FALSE(excluded.empty());
  REQUIRE_FALSE(other.empty());
  agent.fake->push(ScriptedReply::text("one"));
  REQUIRE(agent.client->prompt(excluded, "hi").stopReason == "end_turn");
  agent.fake->push(ScriptedReply::text("two"));
  REQUIRE(agent.client->prompt(other, "hi").stopReason == "end_turn");
  auto requests = agent.fake->generateRequests();
  REQUIRE(requests.size() == 2);
  CHECK_FALSE(declares(requests[0].body, "write_file"));
  CHECK(declares(requests[0].body, "read_file"));
  CHECK(declares(requests[1].body, "write_file"));
  CHECK(permissionRequests(*agent.client).empty());  // narrowing asks nothing
  checkAgainstSchema(*agent.client);
}

TEST_CASE("e2e workspace settings: tools.allowed without consent still asks before a shell command",
          "[e2e][wsettings]") {
  Home home;
  TempDir ws;
  writeFile(ws.path / ".gemini/settings.json", kAllowShell);
  Agent agent(home, "reject_once");
  std::string session = agent.client->newSession(ws.str());
  auto outcome = shellTurn(agent, session);
  REQUIRE(outcome.stopReason == "end_turn");
  auto asked = permissionRequests(*agent.client);
  REQUIRE(asked.size() == 2);  // the workspace's configuration, then the command
  CHECK_THAT(json::stringify(*asked[0]), Catch::Contains("tools.allowed"));
  CHECK_THAT(json::stringify(*asked[1]), Catch::Contains("touch made.txt"));
  CHECK_FALSE(fs::exists(ws.path / "made.txt"));
  CHECK_THAT(cardTexts(outcome.updates), Catch::Contains("Lathe ignored tools.allowed"));
  checkAgainstSchema(*agent.client);
}

TEST_CASE("e2e workspace settings: tools.allowed runs a shell command unasked with --trust-workspace",
          "[e2e][wsettings]") {
  Home home;
  TempDir ws;
  writeFile(ws.path / ".gemini/settings.json", kAllowShell);
  Agent agent(home, "reject_once", {"--trust-workspace"});
  std::string session = agent.client->newSession(ws.str());
  auto outcome = shellTurn(agent, session);
  REQUIRE(outcome.stopReason == "end_turn");
  CHECK(permissionRequests(*agent.client).empty());
  CHECK(fs::exists(ws.path / "made.txt"));
}

TEST_CASE("e2e workspace settings: consent given at the first turn applies tools.allowed at once and 'always' is remembered",
          "[e2e][wsettings]") {
  Home home;
  TempDir ws;
  writeFile(ws.path / ".gemini/settings.json", kAllowShell);
  {
    Agent agent(home, "allow_always");
    std::string session = agent.client->newSession(ws.str());
    REQUIRE(shellTurn(agent, session).stopReason == "end_turn");
    CHECK(permissionRequests(*agent.client).size() == 1);  // the workspace only: the command ran unasked
    CHECK(fs::exists(ws.path / "made.txt"));
  }
  fs::remove(ws.path / "made.txt");
  {
    Agent agent(home, "reject_once");  // remembered: nothing is asked
    std::string session = agent.client->newSession(ws.str());
    REQUIRE(shellTurn(agent, session).stopReason == "end_turn");
    CHECK(permissionRequests(*agent.client).empty());
    CHECK(fs::exists(ws.path / "made.txt"));
  }
  // A changed value is a new question.
  fs::remove(ws.path / "made.txt");
  writeFile(ws.path / ".gemini/settings.json", R"({"tools": {"allowed": ["run_shell_command", "write_file"]}})");
  Agent agent(home, "reject_once");
  std::string session = agent.client->newSession(ws.str());
  REQUIRE(shellTurn(agent, session).stopReason == "end_turn");
  CHECK(permissionRequests(*agent.client).size() == 2);
  CHECK_FALSE(fs::exists(ws.path / "made.txt"));
}

TEST_CASE("e2e workspace settings: a yolo mode applies only with consent and at once when given at the first turn",
          "[e2e][wsettings]") {
  Home home;
  TempDir ws;
  writeFile(ws.path / ".gemini/settings.json", R"({"general": {"defaultApprovalMode": "yolo"}})");
  {
    Agent agent(home, "reject_once");
    CHECK(newSessionMode(*agent.client, ws.str()) == "default");
  }
  {
    // Allowed at the first turn: the mode switches then (and says so), the command runs unasked.
    Agent agent(home, "allow_once");
    std::string session = agent.client->newSession(ws.str());
    auto outcome = shellTurn(agent, session);
    REQUIRE(outcome.stopReason == "end_turn");
    auto modes = ofKind(outcome.updates, "current_mode_update");
    REQUIRE(modes.size() == 1);
    CHECK(field(modes[0], "currentModeId") == "yolo");
    CHECK(permissionRequests(*agent.client).size() == 1);
    CHECK(fs::exists(ws.path / "made.txt"));
    checkAgainstSchema(*agent.client);
  }
  Agent trusted(home, "reject_once", {"--trust-workspace"});
  CHECK(newSessionMode(*trusted.client, ws.str()) == "yolo");
  // A narrowing mode needs no consent.
  TempDir planned;
  writeFile(planned.path / ".gemini/settings.json", R"({"general": {"defaultApprovalMode": "plan"}})");
  Agent agent(home, "reject_once");
  CHECK(newSessionMode(*agent.client, planned.str()) == "plan");
}

TEST_CASE("e2e workspace settings: a broken file is told once naming file and field and the session works",
          "[e2e][wsettings]") {
  Home home;
  TempDir ws;
  writeFile(ws.path / ".gemini/settings.json", R"({"tools": {"exclude": ["write_file"]}, "model": {"compressionThreshold": 7}})");
  Agent agent(home, "allow_once");
  std::string session = agent.client->newSession(ws.str());
  REQUIRE_FALSE(session.empty());
  agent.fake->push(ScriptedReply::text("Still here."));
  auto first = agent.client->prompt(session, "hi");
  REQUIRE(first.stopReason == "end_turn");
  CHECK(joinedText(first.updates, "agent_message_chunk") == "Still here.");
  std::string told = cardTexts(first.updates);
  CHECK_THAT(told, Catch::Contains(".gemini/settings.json.model.compressionThreshold"));
  CHECK_THAT(told, Catch::Contains("goes on with yours"));
  auto requests = agent.fake->generateRequests();
  REQUIRE(requests.size() == 1);
  CHECK(declares(requests[0].body, "write_file"));  // nothing of the broken file applies
  agent.fake->push(ScriptedReply::text("Again."));
  auto second = agent.client->prompt(session, "again");
  REQUIRE(second.stopReason == "end_turn");
  CHECK_THAT(cardTexts(second.updates), !Catch::Contains("compressionThreshold"));
  checkAgainstSchema(*agent.client);
}

TEST_CASE("e2e workspace settings: session/load, resume and fork apply the session's workspace settings",
          "[e2e][wsettings]") {
  Home home;
  TempDir ws;
  std::string id;
  {
    Agent agent(home, "reject_once");
    id = agent.client->newSession(ws.str());
    agent.fake->push(ScriptedReply::text("first"));
    REQUIRE(agent.client->prompt(id, "hi").stopReason == "end_turn");
    CHECK(declares(agent.fake->generateRequests()[0].body, "write_file"));
  }
  writeFile(ws.path / ".gemini/settings.json", R"({"tools": {"exclude": ["write_file"]}})");
  const std::string params = json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", id);
    json::put(w, "cwd", ws.str());
    json::put(w, "mcpServers", json::Raw{"[]"});
    w.EndObject();
  });
  for (const std::string method : {"session/load", "session/resume", "session/fork"}) {
    INFO(method);
    Agent agent(home, "reject_once");
    Message reopened = agent.client->call(method, params);
    REQUIRE(reopened);
    REQUIRE(member(*reopened, "result"));
    // A fork is a session of its own, set up as a new one is.
    const std::string target =
        method == "session/fork" ? json::getStr(*member(*reopened, "result"), "sessionId").value_or("") : id;
    agent.fake->push(ScriptedReply::text("again"));
    REQUIRE(agent.client->prompt(target, "again").stopReason == "end_turn");
    auto requests = agent.fake->generateRequests();
    REQUIRE(requests.size() == 1);
    CHECK_FALSE(declares(requests[0].body, "write_file"));
  }
}

TEST_CASE("e2e workspace settings: lathe run reads the workspace's file the same way", "[e2e][wsettings]") {
  Home home;
  TempDir ws;
  const std::string reply =
      R"({"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP"}]}]})";
  fs::path replay = home.state.path / "replay.jsonl";
  writeFile(replay, reply + "\n");
  // Broken: told on stderr, the answer still comes (before, `run` refused to start).
  writeFile(ws.path / ".gemini/settings.json", R"({"model": {"compressionThreshold": "high"}})");
  auto broken = runLathe({"run", "--fake-responses", replay.string(), "hello"}, ws.str(), home.env());
  INFO(broken.err);
  CHECK(broken.status.success());
  CHECK(broken.out == "ok\n");
  CHECK_THAT(broken.err, Catch::Contains(".gemini/settings.json.model.compressionThreshold"));
  // Widening without a terminal to ask: ignored, and said so.
  writeFile(ws.path / ".gemini/settings.json", R"({"general": {"defaultApprovalMode": "yolo"}})");
  auto widening = runLathe({"run", "--fake-responses", replay.string(), "hello"}, ws.str(), home.env());
  INFO(widening.err);
  CHECK(widening.status.success());
  CHECK_THAT(widening.err, Catch::Contains("Lathe ignored general.defaultApprovalMode"));
}
