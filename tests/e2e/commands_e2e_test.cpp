// End-to-end: slash commands and plans through ACP with the real binary.
// The session's commands arrive as available_commands_update once session/new
// is answered (and again when an MCP server's prompts arrive), never in the
// session's record; /help, /tools and /mcp answer without the model; /init
// has the model write GEMINI.md through the permission flow and refuses when
// one exists; server-everything's args-prompt runs as a command with its
// arguments; write_todos shows plans. Every conversation is checked against
// the ACP schema.
#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

const std::string kEverything =
    std::string(LATHE_SOURCE_DIR) + "/.deps/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js";

std::string everythingServer() {
  return json::build([&](json::Writer& w) {
    w.StartArray();
    w.StartObject();
    json::put(w, "name", "everything");
    json::put(w, "command", "node");
    json::key(w, "args");
    w.StartArray();
    json::str(w, kEverything);
    json::str(w, "stdio");
    w.EndArray();
    json::key(w, "env");
    w.StartArray();
    w.EndArray();
    w.EndObject();
    w.EndArray();
  });
}

Message commandsUpdate(AcpTestClient& client, const std::string& sid, const std::string& naming) {
  return client.waitFor([&](const json::Value& m) {
    const json::Value* params = member(m, "params");
    const json::Value* u = params ? member(*params, "update") : nullptr;
    if (!u || json::getStr(*u, "sessionUpdate").value_or("") != "available_commands_update") return false;
    if (json::getStr(*params, "sessionId").value_or("") != sid) return false;
    const json::Value* list = member(*u, "availableCommands");
    if (!list || !list->IsArray()) return false;
    for (const auto& c : list->GetArray()) {
      if (json::getStr(c, "name").value_or("") == naming) return true;
    }
    return false;
  });
}

// The (content, status) pairs of a plan update.
std::vector<std::pair<std::string, std::string>> planEntries(const Message& m) {
  std::vector<std::pair<std::string, std::string>> out;
  const json::Value* u = updateOf(m);
  const json::Value* entries = u ? member(*u, "entries") : nullptr;
  if (!entries || !entries->IsArray()) return out;
  for (const auto& e : entries->GetArray()) {
    out.emplace_back(json::getStr(e, "content").value_or(""), json::getStr(e, "status").value_or(""));
  }
  return out;
}

}  // namespace

TEST_CASE("e2e: slash commands are announced, answer without the model, and run an MCP prompt with arguments",
          "[e2e][commands]") {
  TempDir ws;
  TempDir state;
  auto fake = startFake();
  auto agent = startLathe(*fake, LatheOptions{{}, "gemini-e2e-model", state.str()});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str(), everythingServer());
  REQUIRE_FALSE(sid.empty());
  INFO("lathe stderr:\n" << agent->stderrText());

  // Lathe's own commands at once, then server-everything's prompts when it connects.
  Message first = commandsUpdate(client, sid, "help");
  REQUIRE(first);
  for (const char* name : {"help", "tools", "mcp", "init", "compress"}) CHECK(has(commandNames(first), name));
  Message withPrompts = commandsUpdate(client, sid, "args-prompt");
  REQUIRE(withPrompts);
  CHECK(has(commandNames(withPrompts), "simple-prompt"));
  // Announcing commands does not make a session that was never prompted non-empty.
  const fs::path record = state.path / "lathe" / "sessions" / sid / "record.jsonl";
  REQUIRE(fs::exists(record));
  CHECK(fs::file_size(record) == 0);

  auto help = client.prompt(sid, "/help");
  CHECK(help.stopReason == "end_turn");
  std::string helpText = joinedText(help.updates, "agent_message_chunk");
  CHECK_THAT(helpText, Catch::Contains("`/tools`") && Catch::Contains("`/args-prompt <city> [state]`") &&
                           Catch::Contains("`/init`"));

  auto tools = client.prompt(sid, "  /tools ");
  std::string toolsText = joinedText(tools.updates, "agent_message_chunk");
  CHECK_THAT(toolsText, Catch::Contains("Built-in:") && Catch::Contains("`write_todos`") &&
                            Catch::Contains("MCP server everything:") && Catch::Contains("`everything__echo`"));

  auto mcp = client.prompt(sid, "/mcp");
  std::string mcpText = joinedText(mcp.updates, "agent_message_chunk");
  CHECK_THAT(mcpText, Catch::Contains("**everything**: connected") && Catch::Contains("`args-prompt`") &&
                          Catch::Contains("`everything__echo`"));
  CHECK(fake->generateRequests().empty());  // none of these asked the model

  // A missing required argument is a clear error and nothing is sent.
  auto missing = client.prompt(sid, "/args-prompt");
  CHECK(missing.stopReason == "end_turn");
  CHECK_THAT(joinedText(missing.updates, "agent_message_chunk"), Catch::Contains("missing the required argument \"city\""));
  CHECK(fake->generateRequests().empty());

  // Positional in declared order, or --name=value.
  fake->push(ScriptedReply::text("Sunny."));
  auto run = client.prompt(sid, "/args-prompt \"San Antonio\" --state=Texas");
  CHECK(run.stopReason == "end_turn");
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 1);
  CHECK_THAT(requests[0].body, Catch::Contains("What's weather in San Antonio, Texas?"));
  CHECK(requests[0].body.find("/args-prompt") == std::string::npos);
  CHECK(joinedText(run.updates, "agent_message_chunk") == "Sunny.");

  // A /word that names no command goes to the model as written.
  fake->push(ScriptedReply::text("That path is fine."));
  auto plain = client.prompt(sid, "/usr/lib/libfoo.so is missing");
  CHECK(plain.stopReason == "end_turn");
  REQUIRE(fake->generateRequests().size() == 2);
  CHECK_THAT(fake->generateRequests()[1].body, Catch::Contains("/usr/lib/libfoo.so is missing"));

  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: /init has the model write GEMINI.md through the permission flow, and refuses when one exists",
          "[e2e][commands]") {
  TempDir ws;
  auto fake = startFake();
  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  REQUIRE_FALSE(sid.empty());
  INFO("lathe stderr:\n" << agent->stderrText());

  const std::string target = (ws.path / "GEMINI.md").string();
  std::string args = json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "file_path", target);
    json::put(w, "content", "# Project\n\nBuild with make.\n");
    w.EndObject();
  });
  fake->push(ScriptedReply::functionCall("write_file", args));
  fake->push(ScriptedReply::text("Wrote GEMINI.md."));
  auto init = client.prompt(sid, "/init");
  CHECK(init.stopReason == "end_turn");
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 2);
  CHECK_THAT(requests[0].body, Catch::Contains("Write a GEMINI.md file"));
  int asked = 0;
  for (const auto& m : client.messages()) asked += json::getStr(*m, "method").value_or("") == "session/request_permission";
  CHECK(asked == 1);  // the edit went through the person
  REQUIRE(fs::exists(target));
  std::ifstream in(target);
  std::stringstream written;
  written << in.rdbuf();
  CHECK(written.str() == "# Project\n\nBuild with make.\n");

  auto again = client.prompt(sid, "/init");
  CHECK(again.stopReason == "end_turn");
  CHECK_THAT(joinedText(again.updates, "agent_message_chunk"), Catch::Contains("already exists"));
  CHECK(fake->generateRequests().size() == 2);

  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: write_todos shows a plan, a second call replaces it, and a loaded session replays it",
          "[e2e][commands]") {
  TempDir ws;
  TempDir state;
  auto fake = startFake();
  std::string sid;
  {
    auto agent = startLathe(*fake, LatheOptions{{}, "gemini-e2e-model", state.str()});
    AcpTestClient client(*agent);
    REQUIRE(client.initialize());
    sid = client.newSession(ws.str());
    REQUIRE_FALSE(sid.empty());
    INFO("lathe stderr:\n" << agent->stderrText());
    fake->push(ScriptedReply::functionCall(
        "write_todos", R"({"todos":[{"description":"Read the code","status":"in_progress"},)"
                       R"({"description":"Fix the bug","status":"pending"}]})"));
    fake->push(ScriptedReply::functionCall(
        "write_todos", R"({"todos":[{"description":"Read the code","status":"completed"},)"
                       R"({"description":"Fix the bug","status":"cancelled"}]})"));
    fake->push(ScriptedReply::text("Planned."));
    auto turn = client.prompt(sid, "plan it");
    CHECK(turn.stopReason == "end_turn");
    auto plans = ofKind(turn.updates, "plan");
    REQUIRE(plans.size() == 2);
    using Entries = std::vector<std::pair<std::string, std::string>>;
    CHECK(planEntries(plans[0]) == Entries{{"Read the code", "in_progress"}, {"Fix the bug", "pending"}});
    CHECK(planEntries(plans[1]) == Entries{{"Read the code", "completed"}, {"Fix the bug (cancelled)", "completed"}});
    // Nobody was asked: write_todos runs without a question.
    for (const auto& m : client.messages()) CHECK(json::getStr(*m, "method").value_or("") != "session/request_permission");
    auto responses = lastFunctionResponses(fake->generateRequests()[2].body);
    REQUIRE(responses.size() == 1);
    CHECK_THAT(responses[0].responseJson, Catch::Contains("2. [cancelled] Fix the bug"));
    checkAgainstSchema(client);
    finish(*agent);
  }
  auto agent = startLathe(*fake, LatheOptions{{}, "gemini-e2e-model", state.str()});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  auto loaded = client.call("session/load", R"({"sessionId":")" + sid + R"(","cwd":")" + ws.str() + R"(","mcpServers":[]})");
  REQUIRE(loaded);
  CHECK_FALSE(member(*loaded, "error"));
  auto replayed = ofKind(client.notifications(), "plan");
  REQUIRE(replayed.size() == 2);
  CHECK(planEntries(replayed[1]).size() == 2);
  // The commands come after the answer, once, from this process: none were recorded to replay.
  REQUIRE(commandsUpdate(client, sid, "help"));
  CHECK(ofKind(client.notifications(), "available_commands_update").size() == 1);
  checkAgainstSchema(client);
  finish(*agent);
}
