// End-to-end: a workspace's .gemini/settings.json that defines programs
// (here a discovery command that leaves a marker file when it runs) starts
// nothing until the person agrees through session/request_permission; an
// "always" answer is remembered for that exact configuration and a changed
// one asks again; a refusal leaves the session working without them.
// Discovered tools are declared to the model, asked about, and called.
// Headless `lathe run` fails closed without a terminal; --trust-workspace
// allows. Every run has its own HOME and XDG_STATE_HOME.
#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

using Home = PrivateHome;
using Agent = HomeAgent;

const std::string kScript = std::string(LATHE_SOURCE_DIR) + "/tests/support/discovery_tool.sh";

// The workspace's settings: discovery writes `marker` each time it runs.
void writeWorkspaceSettings(const TempDir& ws, const fs::path& marker, const std::string& shape = "bare") {
  std::string discovery = "bash '" + kScript + "' discover " + shape + " '" + marker.string() + "'";
  std::string call = "bash '" + kScript + "' call";
  writeFile(ws.path / ".gemini/settings.json", json::build([&](json::Writer& w) {
              w.StartObject();
              json::key(w, "tools");
              w.StartObject();
              json::put(w, "discoveryCommand", discovery);
              json::put(w, "callCommand", call);
              w.EndObject();
              w.EndObject();
            }));
}

std::string toolCallTitle(const Message& ask) {
  const json::Value* params = member(*ask, "params");
  const json::Value* call = params ? member(*params, "toolCall") : nullptr;
  return call ? json::getStr(*call, "title").value_or("") : "";
}

}  // namespace

TEST_CASE("e2e: workspace programs wait for consent, refused, they never run", "[e2e][consent]") {
  Home home;
  TempDir ws;
  fs::path marker = home.home.path / "discovery-ran";
  writeWorkspaceSettings(ws, marker);
  Agent agent(home, "reject_once");
  std::string session = agent.client->newSession(ws.str());
  REQUIRE_FALSE(session.empty());
  CHECK_FALSE(fs::exists(marker));  // session/new starts nothing

  agent.fake->push(ScriptedReply::text("Hello."));
  auto outcome = agent.client->prompt(session, "hi");
  REQUIRE(outcome.stopReason == "end_turn");
  auto asks = requestsOf(*agent.client, "session/request_permission");
  REQUIRE(asks.size() == 1);
  CHECK_THAT(toolCallTitle(asks[0]), Catch::Contains("workspace's settings"));
  CHECK_THAT(json::stringify(*asks[0]), Catch::Contains("discover bare"));
  CHECK_FALSE(fs::exists(marker));
  CHECK_THAT(cardTexts(outcome.updates), Catch::Contains("did not start the programs"));
  auto requests = agent.fake->generateRequests();
  REQUIRE(requests.size() == 1);
  CHECK_THAT(requests[0].body, !Catch::Contains("discovered_tool_echo"));

  // "Not now" is not remembered, but the session does not ask twice.
  agent.fake->push(ScriptedReply::text("Again."));
  REQUIRE(agent.client->prompt(session, "again").stopReason == "end_turn");
  CHECK(requestsOf(*agent.client, "session/request_permission").size() == 1);
  CHECK_FALSE(fs::exists(marker));
  checkAgainstSchema(*agent.client);
}

TEST_CASE("e2e: allowed always, discovery runs, its tool is asked about and called, a changed config asks again",
          "[e2e][consent]") {
  Home home;
  TempDir ws;
  fs::path marker = home.home.path / "discovery-ran";
  writeWorkspaceSettings(ws, marker);
  {
    Agent agent(home, "allow_always");
    std::string session = agent.client->newSession(ws.str());
    CHECK_FALSE(fs::exists(marker));
    agent.fake->push(ScriptedReply::functionCall("discovered_tool_echo", R"({"text":"ping"})"));
    agent.fake->push(ScriptedReply::text("Done."));
    auto outcome = agent.client->prompt(session, "use the project tool");
    REQUIRE(outcome.stopReason == "end_turn");
    CHECK(fs::exists(marker));
    auto requests = agent.fake->generateRequests();
    REQUIRE(requests.size() == 2);
    CHECK_THAT(requests[0].body, Catch::Contains("discovered_tool_echo"));
    auto responses = lastFunctionResponses(requests[1].body);
    REQUIRE(responses.size() == 1);
    CHECK_THAT(responseField(responses[0].responseJson, "output"), Catch::Contains(R"("got":{"text":"ping"})"));
    auto asks = requestsOf(*agent.client, "session/request_permission");
    REQUIRE(asks.size() == 2);  // the workspace, then the call
    CHECK_THAT(json::stringify(*asks[1]), Catch::Contains("call echo"));
    checkAgainstSchema(*agent.client);
  }
  // Another process, the same configuration: remembered, nothing asked.
  fs::remove(marker);
  {
    Agent agent(home, "reject_once");
    std::string session = agent.client->newSession(ws.str());
    agent.fake->push(ScriptedReply::text("Hi."));
    REQUIRE(agent.client->prompt(session, "hi").stopReason == "end_turn");
    CHECK(requestsOf(*agent.client, "session/request_permission").empty());
    CHECK(fs::exists(marker));
  }
  // A changed configuration is a new question (refused here: nothing runs).
  fs::remove(marker);
  writeWorkspaceSettings(ws, marker, "grouped");
  {
    Agent agent(home, "reject_once");
    std::string session = agent.client->newSession(ws.str());
    agent.fake->push(ScriptedReply::text("Hi."));
    REQUIRE(agent.client->prompt(session, "hi").stopReason == "end_turn");
    CHECK(requestsOf(*agent.client, "session/request_permission").size() == 1);
    CHECK_FALSE(fs::exists(marker));
  }
}

TEST_CASE("e2e: 'never' is remembered, bad discovery output is told, the session goes on", "[e2e][consent]") {
  Home home;
  TempDir ws;
  fs::path marker = home.home.path / "discovery-ran";
  writeWorkspaceSettings(ws, marker);
  {
    Agent agent(home, "reject_always");
    std::string session = agent.client->newSession(ws.str());
    agent.fake->push(ScriptedReply::text("Hi."));
    REQUIRE(agent.client->prompt(session, "hi").stopReason == "end_turn");
    CHECK_FALSE(fs::exists(marker));
  }
  {
    Agent agent(home, "allow_once");
    std::string session = agent.client->newSession(ws.str());
    agent.fake->push(ScriptedReply::text("Hi."));
    REQUIRE(agent.client->prompt(session, "hi").stopReason == "end_turn");
    CHECK(requestsOf(*agent.client, "session/request_permission").empty());  // refused for good
    CHECK_FALSE(fs::exists(marker));
  }
  TempDir other;
  writeWorkspaceSettings(other, marker, "garbage");
  Agent agent(home, "allow_once");
  std::string session = agent.client->newSession(other.str());
  agent.fake->push(ScriptedReply::text("Still here."));
  auto outcome = agent.client->prompt(session, "hi");
  REQUIRE(outcome.stopReason == "end_turn");
  CHECK(fs::exists(marker));
  CHECK_THAT(cardTexts(outcome.updates), Catch::Contains("printed something unusable"));
  CHECK(joinedText(outcome.updates, "agent_message_chunk") == "Still here.");
}

TEST_CASE("e2e: a broken workspace settings file is told naming file and field and the session starts nothing and works",
          "[e2e][consent]") {
  Home home;
  TempDir ws;
  writeFile(ws.path / ".gemini/settings.json", R"({"mcpServers": {"s": {"command": 7}}})");
  Agent agent(home, "allow_once");
  std::string session = agent.client->newSession(ws.str());
  REQUIRE_FALSE(session.empty());
  agent.fake->push(ScriptedReply::text("Hi."));
  auto outcome = agent.client->prompt(session, "hi");
  REQUIRE(outcome.stopReason == "end_turn");
  CHECK_THAT(cardTexts(outcome.updates), Catch::Contains(".gemini/settings.json.mcpServers.s.command"));
  CHECK(requestsOf(*agent.client, "session/request_permission").empty());  // nothing of it is asked about
}

TEST_CASE("e2e: headless run without a terminal starts nothing, --trust-workspace allows", "[e2e][consent]") {
  Home home;
  TempDir ws;
  fs::path marker = home.home.path / "discovery-ran";
  writeWorkspaceSettings(ws, marker);
  const std::string reply =
      R"({"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP"}]}]})";
  fs::path replay = home.state.path / "replay.jsonl";
  writeFile(replay, reply + "\n");
  auto refused = runLathe({"run", "--fake-responses", replay.string(), "hello"}, ws.str(), home.env());
  INFO(refused.err);
  CHECK(refused.status.success());
  CHECK(refused.out == "ok\n");
  CHECK_FALSE(fs::exists(marker));
  CHECK_THAT(refused.err, Catch::Contains("--trust-workspace"));

  auto trusted = runLathe({"run", "--trust-workspace", "--fake-responses", replay.string(), "hello"}, ws.str(), home.env());
  INFO(trusted.err);
  CHECK(trusted.status.success());
  CHECK(fs::exists(marker));
}

TEST_CASE("e2e: a workspace's MCP servers are asked about too, and refused they never start", "[e2e][consent]") {
  Home home;
  TempDir ws;
  fs::path marker = home.home.path / "server-ran";
  writeFile(ws.path / ".gemini/settings.json", json::build([&](json::Writer& w) {
              w.StartObject();
              json::key(w, "mcpServers");
              w.StartObject();
              json::key(w, "repo-server");
              w.StartObject();
              json::put(w, "command", "touch");
              json::key(w, "args");
              w.StartArray();
              json::str(w, marker.string());
              w.EndArray();
              json::put(w, "trust", true);
              w.EndObject();
              w.EndObject();
              w.EndObject();
            }));
  Agent agent(home, "reject_once");
  std::string session = agent.client->newSession(ws.str());
  REQUIRE_FALSE(session.empty());
  agent.fake->push(ScriptedReply::text("Hi."));
  REQUIRE(agent.client->prompt(session, "hi").stopReason == "end_turn");
  auto asks = requestsOf(*agent.client, "session/request_permission");
  REQUIRE(asks.size() == 1);
  std::string shown = json::stringify(*asks[0]);
  CHECK_THAT(shown, Catch::Contains("MCP server \\\"repo-server\\\": `touch "));
  CHECK_THAT(shown, Catch::Contains("with trust: true (its tools run without asking)"));
  CHECK_FALSE(fs::exists(marker));
}
