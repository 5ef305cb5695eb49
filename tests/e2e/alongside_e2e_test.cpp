// End-to-end: working alongside the agent, through the real binary: prompts
// queued behind a running turn (and dropped with it), _session/steering,
// live shell output through Zed's terminal-output extension, approved lines
// in the editor's own terminal (terminal/*), and plan mode's handoff
// (enter_plan_mode, plan files, exit_plan_mode's question). Every message is
// checked against the schema (extension methods: objects both ways).
#include "tests/e2e/e2e_support.h"

namespace lathe::testing::e2e {
namespace {

const json::Value* resultOf(const Message& m) { return m ? member(*m, "result") : nullptr; }

std::string methodOf(const json::Value& m) { return json::getStr(m, "method").value_or(""); }

// Waits for the nth (1-based) agent->client request of this method (or
// message that `counts`); the predicate sees each message once, in order.
Message waitForNth(AcpTestClient& client, size_t nth, const std::function<bool(const json::Value&)>& counts) {
  size_t seen = 0;
  Message found = client.waitFor([&](const json::Value& m) { return counts(m) && ++seen == nth; });
  REQUIRE(found);
  return found;
}
Message waitForRequest(AcpTestClient& client, const std::string& method, size_t nth = 1) {
  return waitForNth(client, nth, [&](const json::Value& m) {
    return json::getStr(m, "method").value_or("") == method && member(m, "id");
  });
}

// Answers a held session/request_permission with one of its options.
void choose(AcpTestClient& client, const Message& asked, const std::string& optionId) {
  client.respond(*member(*asked, "id"),
                 R"({"outcome":{"outcome":"selected","optionId":")" + optionId + R"("}})");
}

std::vector<std::string> optionIds(const Message& asked) {
  std::vector<std::string> ids;
  for (const auto& option : (*asked)["params"]["options"].GetArray()) ids.push_back(json::getStr(option, "optionId").value_or(""));
  return ids;
}

std::string steerParams(const std::string& sid, const std::string& text, bool promptRequired = false) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "sessionId", sid);
    json::array(w, "prompt", [&] {
      json::object(w, [&] {
        json::put(w, "type", "text");
        json::put(w, "text", text);
      });
    });
    if (promptRequired) {
      json::object(w, "_meta", [&] { json::object(w, "steering", [&] { json::put(w, "idleBehavior", "promptRequired"); }); });
    }
  });
}

std::string lastToolOutput(const FakeGeminiServer& fake) {
  auto requests = fake.generateRequests();
  REQUIRE_FALSE(requests.empty());
  auto responses = lastFunctionResponses(requests.back().body);
  REQUIRE(responses.size() == 1);
  return responses[0].responseJson;
}

// The _meta member `key` of the session/update notifications that have one.
std::vector<const json::Value*> metaOf(const std::vector<Message>& updates, const char* key) {
  std::vector<const json::Value*> out;
  for (const auto& m : updates) {
    const json::Value* update = updateOf(m);
    const json::Value* meta = update ? member(*update, "_meta") : nullptr;
    if (const json::Value* found = meta ? member(*meta, key) : nullptr) out.push_back(found);
  }
  return out;
}

// The terminal ids tool call content embedded.
std::vector<std::string> embeddedTerminals(const std::vector<Message>& updates) {
  std::vector<std::string> ids;
  for (const auto& m : updates) {
    const json::Value* update = updateOf(m);
    const json::Value* content = update ? member(*update, "content") : nullptr;
    if (!content || !content->IsArray()) continue;
    for (const auto& item : content->GetArray()) {
      if (json::getStr(item, "type").value_or("") == "terminal") ids.push_back(json::getStr(item, "terminalId").value_or(""));
    }
  }
  return ids;
}

HandlerReply hold(const std::string&, const json::Value&) { return HandlerReply::later(); }

}  // namespace

TEST_CASE("e2e: a prompt sent while a turn runs is queued, shown when it starts, and runs after it", "[e2e][alongside]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("write_file", R"({"file_path":"a.txt","content":"x"})"));
  fake->push(textStream({"First done."}));
  fake->push(textStream({"Second done."}));
  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  client.setHandler("session/request_permission", hold);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  int64_t first = client.request("session/prompt", promptParams(sid, "write a"));
  Message asked = waitForRequest(client, "session/request_permission");
  int64_t second = client.request("session/prompt", promptParams(sid, "then say hi"));
  // Not refused: it waits. The first turn goes on when the person answers.
  CHECK_FALSE(client.waitResponse(second, std::chrono::milliseconds(300)));
  choose(client, asked, "allow_once");
  CHECK(stopReasonOf(client.waitResponse(first)) == "end_turn");
  CHECK(stopReasonOf(client.waitResponse(second)) == "end_turn");
  INFO("lathe stderr:\n" << agent->stderrText());
  // The queued prompt is echoed as the person's message where it starts, after the first turn's reply.
  auto updates = client.notifications();
  int firstReply = -1, echoed = -1, secondReply = -1;
  for (size_t i = 0; i < updates.size(); ++i) {
    if (kindOf(updates[i]) == "agent_message_chunk" && chunkText(updates[i]) == "First done.") firstReply = int(i);
    if (kindOf(updates[i]) == "user_message_chunk" && chunkText(updates[i]) == "then say hi") echoed = int(i);
    if (kindOf(updates[i]) == "agent_message_chunk" && chunkText(updates[i]) == "Second done.") secondReply = int(i);
  }
  CHECK(firstReply >= 0);
  CHECK(echoed > firstReply);
  CHECK(secondReply > echoed);
  CHECK(fake->generateRequests().size() == 3);
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: session/cancel ends the turn and drops the prompts queued behind it", "[e2e][alongside]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("write_file", R"({"file_path":"a.txt","content":"x"})"));
  fake->push(textStream({"Later."}));
  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  client.setHandler("session/request_permission", hold);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  int64_t first = client.request("session/prompt", promptParams(sid, "write a"));
  waitForRequest(client, "session/request_permission");
  int64_t second = client.request("session/prompt", promptParams(sid, "queued one"));
  int64_t third = client.request("session/prompt", promptParams(sid, "queued two"));
  // $/cancel_request for a queued prompt takes just it out of the queue.
  client.notify("$/cancel_request", json::buildObject([&](json::Writer& w) { json::put(w, "requestId", third); }));
  CHECK(stopReasonOf(client.waitResponse(third, kCancelGuard)) == "cancelled");
  CHECK_FALSE(client.waitResponse(second, std::chrono::milliseconds(200)));
  client.cancel(sid);
  CHECK(stopReasonOf(client.waitResponse(first, kCancelGuard)) == "cancelled");
  CHECK(stopReasonOf(client.waitResponse(second, kCancelGuard)) == "cancelled");
  CHECK(fake->generateRequests().size() == 1);  // the queued ones never reached the model
  for (const auto& m : ofKind(client.notifications(), "user_message_chunk")) CHECK(chunkText(m).find("queued") == std::string::npos);
  // The session takes the next prompt.
  auto next = client.prompt(sid, "again");
  CHECK(next.stopReason == "end_turn");
  CHECK(joinedText(next.updates, "agent_message_chunk") == "Later.");
  CHECK_FALSE(fs::exists(ws.path / "a.txt"));
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: _session/steering joins the running turn at its next model request", "[e2e][alongside]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("write_file", R"({"file_path":"a.txt","content":"x"})"));
  fake->push(textStream({"Adjusted: tabs."}));
  fake->push(textStream({"A turn of its own."}));
  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  client.setHandler("session/request_permission", hold);
  Message init = client.initialize();
  REQUIRE(resultOf(init));
  const json::Value* meta = member(*resultOf(init), "_meta");
  REQUIRE(meta);
  CHECK((*meta)["steering"]["supported"].GetBool());
  std::string sid = client.newSession(ws.str());

  // Idle, asked to hand it back: promptRequired, nothing runs.
  Message idle = client.call("_session/steering", steerParams(sid, "nothing runs", true));
  REQUIRE(resultOf(idle));
  CHECK(json::getStr(*resultOf(idle), "outcome") == "promptRequired");
  CHECK(fake->generateRequests().empty());

  int64_t prompt = client.request("session/prompt", promptParams(sid, "write a"));
  Message asked = waitForRequest(client, "session/request_permission");
  Message steered = client.call("_session/steering", steerParams(sid, "use tabs, not spaces"));
  REQUIRE(resultOf(steered));
  CHECK(json::getStr(*resultOf(steered), "outcome") == "injected");
  choose(client, asked, "allow_once");
  CHECK(stopReasonOf(client.waitResponse(prompt)) == "end_turn");
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].body.find("use tabs") == std::string::npos);
  CHECK(requests[1].body.find("use tabs, not spaces") != std::string::npos);

  // Idle otherwise: a turn of its own, told by its updates.
  Message started = client.call("_session/steering", steerParams(sid, "one more thing"));
  REQUIRE(resultOf(started));
  CHECK(json::getStr(*resultOf(started), "outcome") == "startedNewTurn");
  REQUIRE(client.waitFor([&](const json::Value& m) {
    const json::Value* update = methodOf(m) == "session/update" ? member(*member(m, "params"), "update") : nullptr;
    return update && json::getStr(*update, "sessionUpdate") == "agent_message_chunk" &&
           json::getStr(*member(*update, "content"), "text") == "A turn of its own.";
  }));
  REQUIRE(fake->waitForRequests(3, 10s));
  CHECK(fake->generateRequests()[2].body.find("one more thing") != std::string::npos);
  bool echoed = false;
  for (const auto& m : ofKind(client.notifications(), "user_message_chunk")) echoed |= chunkText(m) == "one more thing";
  CHECK(echoed);
  // An unknown session is an error.
  CHECK(errorCode(client.call("_session/steering", steerParams("nope", "x"))) == -32002);
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: shell output streams through the terminal-output extension when the client offers it",
          "[e2e][alongside][shell]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("touch made.txt; printf 'hello\\nworld\\n'; exit 3")));
  fake->push(textStream({"ok"}));
  fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("touch again.txt; echo plain")));
  fake->push(textStream({"ok"}));
  auto agent = startLathe(*fake);
  {
    AcpClientOptions options;
    options.moreCapabilities = R"({"_meta":{"terminal_output":true}})";
    AcpTestClient client(*agent, options);
    REQUIRE(client.initialize());
    std::string sid = client.newSession(ws.str());
    auto outcome = client.prompt(sid, "run it");
    CHECK(outcome.stopReason == "end_turn");
    INFO("lathe stderr:\n" << agent->stderrText());
    auto info = metaOf(outcome.updates, "terminal_info");
    REQUIRE(info.size() == 1);
    const std::string id = json::getStr(*info[0], "terminal_id").value_or("");
    CHECK_FALSE(id.empty());
    CHECK(json::getStr(*info[0], "cwd") == fs::canonical(ws.path).string());
    std::string streamed;
    for (const auto* out : metaOf(outcome.updates, "terminal_output")) {
      CHECK(json::getStr(*out, "terminal_id") == id);
      streamed += json::getStr(*out, "data").value_or("");
    }
    CHECK(streamed == "hello\nworld\n");
    auto exits = metaOf(outcome.updates, "terminal_exit");
    REQUIRE(exits.size() == 1);
    CHECK(json::getInt(*exits[0], "exit_code") == 3);
    CHECK((*exits[0])["signal"].IsNull());
    auto embedded = embeddedTerminals(outcome.updates);
    REQUIRE_FALSE(embedded.empty());
    for (const auto& terminal : embedded) CHECK(terminal == id);
    // The model reads the output as always.
    CHECK(lastToolOutput(*fake).find("hello") != std::string::npos);
    checkAgainstSchema(client);
  }
  finish(*agent);

  // A client that does not offer it gets no terminals, the output as text.
  auto plain = startLathe(*fake);
  AcpTestClient client(*plain);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  auto outcome = client.prompt(sid, "run it");
  CHECK(outcome.stopReason == "end_turn");
  CHECK(metaOf(outcome.updates, "terminal_output").empty());
  CHECK(embeddedTerminals(outcome.updates).empty());
  CHECK_THAT(cardTexts(outcome.updates), Catch::Contains("plain"));
  checkAgainstSchema(client);
  finish(*plain);
}

TEST_CASE("e2e: with tools.shell.editorTerminal, approved lines run in the client's terminal, sealed ones never",
          "[e2e][alongside][shell]") {
  TempDir ws, home;
  writeFile(home.path / "settings.json", R"({"tools":{"shell":{"editorTerminal":true}}})");
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("touch x.txt && echo hi")));
  fake->push(textStream({"ok"}));
  fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("ls")));
  fake->push(textStream({"ok"}));
  fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("touch y.txt && sleep 300")));
  auto agent = startLathe(*fake, LatheOptions{{"--settings", (home.path / "settings.json").string()}});
  AcpClientOptions options;
  options.terminal = true;
  AcpTestClient client(*agent, options);
  std::atomic<bool> holdExit{false};
  client.setHandler("terminal/create", [](const std::string&, const json::Value&) {
    return HandlerReply::result(R"({"terminalId":"term-1"})");
  });
  client.setHandler("terminal/wait_for_exit", [&](const std::string&, const json::Value&) {
    return holdExit ? HandlerReply::later() : HandlerReply::result(R"({"exitCode":3,"signal":null})");
  });
  client.setHandler("terminal/output", [](const std::string&, const json::Value&) {
    return HandlerReply::result(R"({"output":"from the editor\n","truncated":false,"exitStatus":{"exitCode":3}})");
  });
  client.setHandler("terminal/kill", [](const std::string&, const json::Value&) { return HandlerReply::result("{}"); });
  client.setHandler("terminal/release", [](const std::string&, const json::Value&) { return HandlerReply::result("{}"); });
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());

  auto ran = client.prompt(sid, "run it");
  CHECK(ran.stopReason == "end_turn");
  INFO("lathe stderr:\n" << agent->stderrText());
  auto created = requestsOf(client, "terminal/create");
  REQUIRE(created.size() == 1);
  const json::Value& params = (*created[0])["params"];
  CHECK(json::getStr(params, "sessionId") == sid);
  CHECK(json::getStr(params, "command") == "bash");
  CHECK(std::string(params["args"][0].GetString()) == "-c");
  CHECK(std::string(params["args"][1].GetString()) == "touch x.txt && echo hi");
  CHECK(json::getStr(params, "cwd") == fs::canonical(ws.path).string());
  CHECK_FALSE(fs::exists(ws.path / "x.txt"));  // the editor ran it, not Lathe
  CHECK(embeddedTerminals(ran.updates) == std::vector<std::string>(embeddedTerminals(ran.updates).size(), "term-1"));
  CHECK_FALSE(embeddedTerminals(ran.updates).empty());
  std::string told = lastToolOutput(*fake);
  CHECK_THAT(told, Catch::Contains("from the editor"));
  CHECK_THAT(told, Catch::Contains("Exit Code: 3"));
  CHECK(requestsOf(client, "terminal/release").size() == 1);
  CHECK(requestsOf(client, "terminal/kill").empty());

  // A line that only reads runs sealed, here, never in the editor's terminal.
  CHECK(client.prompt(sid, "look").stopReason == "end_turn");
  CHECK(requestsOf(client, "terminal/create").size() == 1);

  // Cancel kills the editor's command, then lets the terminal go.
  holdExit = true;
  int64_t prompt = client.request("session/prompt", promptParams(sid, "wait"));
  waitForRequest(client, "terminal/wait_for_exit", 2);
  client.cancel(sid);
  CHECK(stopReasonOf(client.waitResponse(prompt, kCancelGuard)) == "cancelled");
  waitForRequest(client, "terminal/release", 2);
  CHECK(requestsOf(client, "terminal/kill").size() == 1);
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: plan mode writes plans only, and exit_plan_mode asks with the plan, switching the mode it picks",
          "[e2e][alongside][plan]") {
  TempDir ws, state;
  writeFile(ws.path / "src.txt", "source\n");
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("write_file", R"({"file_path":"src.txt","content":"changed"})"));
  fake->push(ScriptedReply::functionCall("write_file", R"({"file_path":"feature-x.md","content":"# Plan\n1. Change src.txt\n"})"));
  fake->push(ScriptedReply::functionCall("exit_plan_mode", R"({"plan_filename":"feature-x.md"})"));
  fake->push(textStream({"Still planning."}));
  fake->push(ScriptedReply::functionCall("exit_plan_mode", R"({"plan_filename":"feature-x.md"})"));
  fake->push(textStream({"Carrying it out."}));
  auto agent = startLathe(*fake, {{"--approval-mode", "plan"}, "gemini-e2e-model", state.str()});
  AcpTestClient client(*agent);
  client.setHandler("session/request_permission", hold);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());

  int64_t first = client.request("session/prompt", promptParams(sid, "plan it"));
  Message asked = waitForRequest(client, "session/request_permission");
  // The workspace file stayed; the plan was written unasked; the question shows it.
  CHECK(readFile(ws.path / "src.txt") == "source\n");
  CHECK(optionIds(asked) == std::vector<std::string>{"autoEdit", "default", "reject_once"});
  std::string shown;
  for (const auto& item : (*asked)["params"]["toolCall"]["content"].GetArray()) {
    if (item.HasMember("content")) shown += json::getStr(item["content"], "text").value_or("") + "\n";
  }
  CHECK_THAT(shown, Catch::Contains("1. Change src.txt"));
  choose(client, asked, "reject_once");
  CHECK(stopReasonOf(client.waitResponse(first)) == "end_turn");
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 4);
  CHECK_THAT(lastFunctionResponses(requests[1].body)[0].responseJson, Catch::Contains("plan mode"));
  CHECK_THAT(lastFunctionResponses(requests[3].body)[0].responseJson, Catch::Contains("stays in plan mode"));
  CHECK(ofKind(client.notifications(), "current_mode_update").empty());
  // The plan is in the session's data folder, not the workspace.
  CHECK_FALSE(fs::exists(ws.path / "feature-x.md"));

  int64_t second = client.request("session/prompt", promptParams(sid, "looks good"));
  choose(client, waitForRequest(client, "session/request_permission", 2), "autoEdit");
  CHECK(stopReasonOf(client.waitResponse(second)) == "end_turn");
  INFO("lathe stderr:\n" << agent->stderrText());
  auto modes = ofKind(client.notifications(), "current_mode_update");
  REQUIRE(modes.size() == 1);
  CHECK(field(modes[0], "currentModeId") == "autoEdit");
  bool optionsTold = false;
  for (const auto& m : ofKind(client.notifications(), "config_option_update")) {
    for (const auto& option : (*updateOf(m))["configOptions"].GetArray()) {
      optionsTold |= json::getStr(option, "id") == "mode" && json::getStr(option, "currentValue") == "autoEdit";
    }
  }
  CHECK(optionsTold);
  std::string told = lastToolOutput(*fake);
  CHECK_THAT(told, Catch::Contains("autoEdit"));
  CHECK_THAT(told, Catch::Contains("1. Change src.txt"));
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: enter_plan_mode asks, then switches the session to plan mode", "[e2e][alongside][plan]") {
  TempDir ws, state;
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("enter_plan_mode", R"({"reason":"a risky change"})"));
  fake->push(textStream({"Planning now."}));
  fake->push(textStream({"Still planning."}));
  auto agent = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  auto outcome = client.prompt(sid, "big change");
  CHECK(outcome.stopReason == "end_turn");
  CHECK(permissionRequests(client).size() == 1);
  auto modes = ofKind(client.notifications(), "current_mode_update");
  REQUIRE(modes.size() == 1);
  CHECK(field(modes[0], "currentModeId") == "plan");
  CHECK_THAT(lastToolOutput(*fake), Catch::Contains("plan mode"));
  // Declared by mode: in plan mode exit_plan_mode, not enter_plan_mode.
  auto before = fake->generateRequests()[0].body;
  CHECK(before.find("\"enter_plan_mode\"") != std::string::npos);
  CHECK(before.find("\"exit_plan_mode\"") == std::string::npos);
  CHECK(client.prompt(sid, "go on").stopReason == "end_turn");
  auto after = fake->generateRequests().back().body;
  CHECK(after.find("\"exit_plan_mode\"") != std::string::npos);
  checkAgainstSchema(client);
  finish(*agent);
}

}  // namespace lathe::testing::e2e
