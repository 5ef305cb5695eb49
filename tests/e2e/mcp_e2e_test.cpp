// End-to-end: an editor passes MCP servers in session/new; the real lathe
// binary starts them, the fake model calls their tools, the permission
// request names the server and the tool, "always allow this server" holds for
// its other tools, a server that cannot start is told to the person once, and
// no server outlives the session. Servers in the person's own settings file
// start without a consent question; mcp.excluded and mcp.allowed keep them
// from starting.
#include "tests/e2e/e2e_support.h"

#include <signal.h>

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

const std::string kTestServer = std::string(LATHE_SOURCE_DIR) + "/tests/support/mcp_test_server.mjs";

std::string nodePath() {
  for (const char* dir : {"/usr/bin", "/usr/local/bin", "/bin"}) {
    std::string candidate = std::string(dir) + "/node";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "node";
}

// session/new's mcpServers: stdio servers running the scripted test server.
std::string servers(const std::vector<std::pair<std::string, std::string>>& nameModes, const std::string& log) {
  return json::build([&](json::Writer& w) {
    w.StartArray();
    for (const auto& [name, mode] : nameModes) {
      w.StartObject();
      json::put(w, "name", name);
      json::put(w, "command", nodePath());
      json::key(w, "args");
      w.StartArray();
      json::str(w, kTestServer);
      json::str(w, mode);
      w.EndArray();
      json::key(w, "env");
      w.StartArray();
      w.StartObject();
      json::put(w, "name", "MCP_TEST_LOG");
      json::put(w, "value", log + "." + name);
      w.EndObject();
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
  });
}

std::vector<int> pidsIn(const std::string& file) {
  std::vector<int> pids;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    auto doc = json::parse(line);
    if (doc && doc->IsObject()) {
      if (auto pid = json::getInt(*doc, "pid")) pids.push_back(static_cast<int>(*pid));
    }
  }
  return pids;
}

// The server is lathe's child, not ours: its end can only be polled.
bool goneWithin(int pid, std::chrono::milliseconds bound) {
  return pollUntil([pid] { return ::kill(pid, 0) != 0; }, bound);
}

// The person's own settings (HOME/.gemini/settings.json) defining one stdio
// server "mine" running the scripted test server, plus an optional "mcp"
// object (mcp.allowed / mcp.excluded) as JSON text.
void writeUserSettings(const TempDir& home, const std::string& log, const std::string& mcpJson = "") {
  writeFile(home.path / ".gemini/settings.json", json::build([&](json::Writer& w) {
              w.StartObject();
              json::key(w, "mcpServers");
              w.StartObject();
              json::key(w, "mine");
              w.StartObject();
              json::put(w, "command", nodePath());
              json::key(w, "args");
              w.StartArray();
              json::str(w, kTestServer);
              json::str(w, "good");
              w.EndArray();
              json::key(w, "env");
              w.StartObject();
              json::put(w, "MCP_TEST_LOG", log);
              w.EndObject();
              w.EndObject();
              w.EndObject();
              if (!mcpJson.empty()) {
                json::key(w, "mcp");
                w.RawValue(mcpJson.data(), mcpJson.size(), rapidjson::kObjectType);
              }
              w.EndObject();
            }));
}

// HOME and GEMINI_CLI_HOME point at `home`, so the binary reads only these settings.
std::vector<std::pair<std::string, std::string>> homeEnv(const TempDir& home) {
  return {{"HOME", home.str()}, {"GEMINI_CLI_HOME", home.str()}};
}

}  // namespace

TEST_CASE("e2e: an MCP server from session/new: its tool is called after a permission naming server and tool",
          "[e2e][mcp]") {
  TempDir ws;
  TempDir logs;
  std::string log = logs.str() + "/mcp";
  auto fake = startFake();
  auto lathe = startLathe(*fake);
  AcpClientOptions options;
  auto client = std::make_unique<AcpTestClient>(*lathe, options);
  client->setHandler("session/request_permission", [](const std::string&, const json::Value&) {
    return HandlerReply::result(R"({"outcome":{"outcome":"selected","optionId":"allow_always_mcp_tool"}})");
  });
  client->initialize();
  std::string session = client->newSession(ws.str(), servers({{"tester", "good"}, {"broken", "exit"}}, log));
  REQUIRE_FALSE(session.empty());

  fake->push(ScriptedReply::functionCall("tester__echo", R"({"text":"from the model"})"));
  fake->push(ScriptedReply::text("Echoed."));
  fake->push(ScriptedReply::functionCall("tester__fail", R"({})"));
  fake->push(ScriptedReply::text("Saw the failure."));
  auto first = client->prompt(session, "use the echo tool");
  CHECK(first.stopReason == "end_turn");

  // The tools were declared to the model.
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() >= 2);
  CHECK(requests[0].body.find("\"tester__echo\"") != std::string::npos);
  CHECK(requests[0].body.find("\"tester__page2tool\"") != std::string::npos);

  // The permission request names the server and the tool.
  auto asks = permissionRequests(*client);
  REQUIRE(asks.size() == 1);
  std::string ask = json::stringify(*asks[0]);
  CHECK(ask.find("MCP tool echo from server tester") != std::string::npos);
  CHECK(ask.find("allow_always_mcp_tool") != std::string::npos);
  CHECK(ask.find("allow_always_server") == std::string::npos);  // one option of each kind

  // The model's arguments reached the server unchanged, and its answer came back marked as the server's.
  auto responses = lastFunctionResponses(requests[1].body);
  REQUIRE(responses.size() == 1);
  std::string output = responseField(responses[0].responseJson, "output");
  CHECK(output.find(R"(echo: {"text":"from the model"})") != std::string::npos);
  CHECK(output.find("MCP server \"tester\"") != std::string::npos);

  // The server that could not start was told to the person, once.
  std::string said = joinedText(first.updates, "agent_message_chunk");
  CHECK(said.find("MCP server \"broken\" failed to start") != std::string::npos);
  CHECK(said.find("refusing to start") != std::string::npos);

  // "Always allow" named the echo tool only: the server's other tool asks.
  auto second = client->prompt(session, "now the failing tool");
  CHECK(second.stopReason == "end_turn");
  CHECK(permissionRequests(*client).size() == 2);
  CHECK(joinedText(second.updates, "agent_message_chunk").find("failed to start") == std::string::npos);
  auto later = fake->generateRequests();
  REQUIRE(later.size() >= 4);
  auto failed = lastFunctionResponses(later[3].body);
  REQUIRE(failed.size() == 1);
  CHECK(responseField(failed[0].responseJson, "error").find("it went wrong on purpose") != std::string::npos);
  CHECK(fake->violations().empty());
  checkAgainstSchema(*client);

  // Closing stdin ends lathe, and its servers with it.
  auto pids = pidsIn(log + ".tester");
  REQUIRE(pids.size() == 1);
  client.reset();
  finish(*lathe);
  CHECK(goneWithin(pids[0], 5s));
}

TEST_CASE("e2e: session/close ends the session's MCP servers", "[e2e][mcp]") {
  TempDir ws;
  TempDir logs;
  std::string log = logs.str() + "/mcp";
  auto fake = startFake();
  auto lathe = startLathe(*fake);
  AcpTestClient client(*lathe);
  client.initialize();
  std::string session = client.newSession(ws.str(), servers({{"tester", "good"}}, log));
  REQUIRE_FALSE(session.empty());
  std::vector<int> pids;
  pollUntil([&] { return !(pids = pidsIn(log + ".tester")).empty(); }, 20s);  // the server's own log
  REQUIRE(pids.size() == 1);
  auto closed = client.call("session/close", R"({"sessionId":")" + session + R"("})");
  CHECK_FALSE(errorCode(closed));
  CHECK(goneWithin(pids[0], 5s));
  finish(*lathe);
}

TEST_CASE("e2e: session/cancel during an MCP call tells the server and keeps history paired", "[e2e][mcp]") {
  TempDir ws;
  TempDir logs;
  std::string log = logs.str() + "/mcp";
  auto fake = startFake();
  auto lathe = startLathe(*fake, LatheOptions{{"--yolo"}});
  AcpTestClient client(*lathe);
  client.initialize();
  std::string session = client.newSession(ws.str(), servers({{"tester", "good"}}, log));
  REQUIRE_FALSE(session.empty());
  fake->push(ScriptedReply::functionCall("tester__slow", "{}"));
  int64_t id = client.request("session/prompt", promptParams(session, "wait for the slow tool"));
  // Cancel once the server has the call (its log, written by another process, says so).
  auto serverHasCall = [&] {
    std::ifstream in(log + ".tester");
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return all.find(R"("name":"slow")") != std::string::npos;
  };
  REQUIRE(pollUntil(serverHasCall, kCancelGuard));
  client.cancel(session);
  auto response = client.waitResponse(id, kCancelGuard);
  REQUIRE(response);
  CHECK(stopReasonOf(response) == "cancelled");
  auto told = [&] {
    std::ifstream in(log + ".tester");
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return all.find(R"("method":"notifications/cancelled")") != std::string::npos;
  };
  CHECK(pollUntil(told, kCancelGuard));

  // The next turn's request carries the cancelled call with its response.
  fake->push(ScriptedReply::text("Fine."));
  CHECK(client.prompt(session, "never mind").stopReason == "end_turn");
  CHECK(fake->violations().empty());
  checkAgainstSchema(client);
  finish(*lathe);
}

TEST_CASE("e2e: an MCP server in the person's settings starts without a consent question and its tool is called",
          "[e2e][mcp][settings]") {
  TempDir home;
  TempDir ws;
  TempDir logs;
  std::string log = logs.str() + "/mine";
  writeUserSettings(home, log);
  auto fake = startFake();
  auto lathe = startLathe(*fake, {}, homeEnv(home));
  auto client = std::make_unique<AcpTestClient>(*lathe, AcpClientOptions{});
  client->initialize();
  std::string session = client->newSession(ws.str());
  REQUIRE_FALSE(session.empty());

  fake->push(ScriptedReply::functionCall("mine__echo", R"({"text":"from settings"})"));
  fake->push(ScriptedReply::text("Echoed."));
  CHECK(client->prompt(session, "use my echo tool").stopReason == "end_turn");

  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].body.find("\"mine__echo\"") != std::string::npos);
  // The one question was about the call; starting the person's own server asked nothing.
  auto asks = permissionRequests(*client);
  REQUIRE(asks.size() == 1);
  CHECK(json::stringify(*asks[0]).find("MCP tool echo from server mine") != std::string::npos);
  auto responses = lastFunctionResponses(requests[1].body);
  REQUIRE(responses.size() == 1);
  CHECK(responseField(responses[0].responseJson, "output").find(R"(echo: {"text":"from settings"})") !=
        std::string::npos);
  CHECK(pidsIn(log).size() == 1);
  client.reset();
  finish(*lathe);
}

TEST_CASE("e2e: mcp.excluded naming a server, or mcp.allowed not naming it, keeps it from starting",
          "[e2e][mcp][settings]") {
  std::string mcp = GENERATE(std::string(R"({"excluded":["mine"]})"), std::string(R"({"allowed":["someone-else"]})"));
  INFO("mcp settings: " << mcp);
  TempDir home;
  TempDir ws;
  TempDir logs;
  std::string log = logs.str() + "/mine";
  writeUserSettings(home, log, mcp);
  auto fake = startFake();
  auto lathe = startLathe(*fake, {}, homeEnv(home));
  auto client = std::make_unique<AcpTestClient>(*lathe, AcpClientOptions{});
  client->initialize();
  std::string session = client->newSession(ws.str());
  REQUIRE_FALSE(session.empty());
  fake->push(ScriptedReply::text("Hello."));
  auto outcome = client->prompt(session, "hi");
  CHECK(outcome.stopReason == "end_turn");

  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].body.find("mine__") == std::string::npos);
  CHECK(permissionRequests(*client).empty());
  CHECK(joinedText(outcome.updates, "agent_message_chunk").find("mine") == std::string::npos);
  client.reset();
  finish(*lathe);
  CHECK_FALSE(fs::exists(log));  // the server never ran, not even briefly
}
