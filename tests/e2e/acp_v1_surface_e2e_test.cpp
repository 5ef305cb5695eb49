// End-to-end: the stable ACP v1 pieces beyond the basics, through the real
// binary: $/cancel_request both ways, session/delete, elicitation (ask_user,
// and an npm MCP server's own requests forwarded), compaction_update, notice,
// the cost meter and per-turn usage (unstable PromptResponse.usage), the
// effort picker, tool call names and message ids kept across a reload. Every
// message is checked against the schema.
#include "tests/e2e/e2e_support.h"

namespace lathe::testing::e2e {
namespace {

constexpr const char* kForms = R"({"elicitation":{"form":{},"url":{}}})";

const std::string kEverything =
    std::string(LATHE_SOURCE_DIR) + "/.deps/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js";

std::string cancelParams(int64_t id) {
  return json::buildObject([&](json::Writer& w) { json::put(w, "requestId", id); });
}

std::string sessionParams(const std::string& sid) {
  return json::buildObject([&](json::Writer& w) { json::put(w, "sessionId", sid); });
}

std::string newSessionParams(const std::string& cwd) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "cwd", cwd);
    json::put(w, "mcpServers", json::Raw{"[]"});
  });
}

std::string loadParams(const std::string& sid, const std::string& cwd) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "sessionId", sid);
    json::put(w, "cwd", cwd);
    json::put(w, "mcpServers", json::Raw{"[]"});
  });
}

std::string effortParams(const std::string& sid, const std::string& value) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "sessionId", sid);
    json::put(w, "configId", "effort");
    json::put(w, "value", value);
  });
}

const json::Value* resultOf(const Message& m) { return m ? member(*m, "result") : nullptr; }

// The $/cancel_request notices the agent sent, by the id they withdraw.
std::vector<std::string> withdrawn(const AcpTestClient& client) {
  std::vector<std::string> ids;
  for (const auto& m : client.messages()) {
    if (json::getStr(*m, "method").value_or("") != "$/cancel_request" || member(*m, "id")) continue;
    const json::Value* params = member(*m, "params");
    const json::Value* id = params ? member(*params, "requestId") : nullptr;
    if (id) ids.push_back(json::stringify(*id));
  }
  return ids;
}

// Waits for an agent->client request of this method; its id as JSON text.
std::string waitForRequest(AcpTestClient& client, const std::string& method) {
  Message asked = client.waitFor([&](const json::Value& m) {
    return json::getStr(m, "method").value_or("") == method && member(m, "id");
  });
  REQUIRE(asked);
  return json::stringify(*member(*asked, "id"));
}

// The response the model got for its last call (in the request after it).
std::string lastToolOutput(FakeGeminiServer& fake) {
  auto requests = fake.generateRequests();
  REQUIRE_FALSE(requests.empty());
  auto responses = lastFunctionResponses(requests.back().body);
  REQUIRE(responses.size() == 1);
  return responses[0].responseJson;
}

// Settings pricing the e2e model, so the fake's usage (10 prompt, 5 output
// tokens a reply) costs $1 + $1 a reply.
std::vector<std::string> pricedArgs(const TempDir& home) {
  writeFile(home.path / "settings.json",
            R"({"model":{"pricing":{"gemini-e2e":{"input":100000,"output":200000}}}})");
  return {"--settings", (home.path / "settings.json").string()};
}

}  // namespace

TEST_CASE("e2e: $/cancel_request ends a prompt at once as cancelled, and the session takes the next one", "[e2e][acp]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::hang({textChunk("Starting")}));
  fake->push(textStream({"Fine."}));
  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  int64_t prompt = client.request("session/prompt", promptParams(sid, "go"));
  REQUIRE(fake->waitForRequests(1, 10s));
  client.notify("$/cancel_request", cancelParams(prompt));
  Message answered = client.waitResponse(prompt, kCancelGuard);
  INFO("lathe stderr:\n" << agent->stderrText());
  CHECK(stopReasonOf(answered) == "cancelled");
  // A cancel for a request answered already changes nothing.
  client.notify("$/cancel_request", cancelParams(prompt));
  auto next = client.prompt(sid, "again");
  CHECK(next.stopReason == "end_turn");
  CHECK(joinedText(next.updates, "agent_message_chunk") == "Fine.");

  // A session/new withdrawn at once is answered -32800 (not created).
  int64_t opening = client.request("session/new", newSessionParams(ws.str()));
  client.notify("$/cancel_request", cancelParams(opening));
  CHECK(errorCode(client.waitResponse(opening)) == -32800);
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: Lathe withdraws its own permission question when the turn is cancelled", "[e2e][acp]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("write_file", R"({"file_path":"a.txt","content":"x"})"));
  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  client.setHandler("session/request_permission",
                    [](const std::string&, const json::Value&) { return HandlerReply::later(); });
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  int64_t prompt = client.request("session/prompt", promptParams(sid, "write"));
  std::string asked = waitForRequest(client, "session/request_permission");
  client.cancel(sid);
  CHECK(stopReasonOf(client.waitResponse(prompt, kCancelGuard)) == "cancelled");
  REQUIRE(client.waitFor([&](const json::Value& m) { return json::getStr(m, "method").value_or("") == "$/cancel_request"; }));
  CHECK(withdrawn(client) == std::vector<std::string>{asked});
  CHECK_FALSE(fs::exists(ws.path / "a.txt"));
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: session/delete removes the record, list forgets it, load names it as not found", "[e2e][acp]") {
  TempDir ws, state;
  auto fake = startFake();
  fake->push(textStream({"one"}));
  fake->push(textStream({"two"}));
  fake->push(textStream({"three"}));
  auto agent = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
  AcpTestClient client(*agent);
  Message init = client.initialize();
  REQUIRE(resultOf(init));
  const json::Value& caps = *member(*member(*resultOf(init), "agentCapabilities"), "sessionCapabilities");
  CHECK(member(caps, "delete"));
  std::string kept = client.newSession(ws.str());
  std::string doomed = client.newSession(ws.str());
  REQUIRE(client.prompt(kept, "keep me").stopReason == "end_turn");
  REQUIRE(client.prompt(doomed, "delete me").stopReason == "end_turn");
  REQUIRE(waitForTitle(client, doomed));

  // Open in another process: refused there, nothing deleted.
  {
    auto other = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
    AcpTestClient second(*other);
    REQUIRE(second.initialize());
    Message refused = second.call("session/delete", sessionParams(doomed));
    CHECK(errorCode(refused) == -32602);
    CHECK_THAT(errorMessage(refused), Catch::Contains("open in another Lathe process"));
    checkAgainstSchema(second);
    finish(*other);
  }
  CHECK(fs::exists(state.path / "lathe/sessions" / doomed));

  // Open here and idle: closed, then deleted.
  Message deleted = client.call("session/delete", sessionParams(doomed));
  REQUIRE(resultOf(deleted));
  CHECK(json::stringify(*resultOf(deleted)) == "{}");
  CHECK_FALSE(fs::exists(state.path / "lathe/sessions" / doomed));
  Message list = client.call("session/list", "{}");
  const json::Value& sessions = *member(*resultOf(list), "sessions");
  REQUIRE(sessions.Size() == 1);
  CHECK(json::getStr(sessions[0], "sessionId") == kept);
  Message load = client.call("session/load", loadParams(doomed, ws.str()));
  CHECK(errorCode(load) == -32002);
  CHECK_THAT(errorMessage(load), Catch::Contains("no recorded session \"" + doomed + "\""));
  Message again = client.call("session/delete", sessionParams(doomed));
  CHECK(errorCode(again) == -32002);
  // The other session is untouched.
  CHECK(client.prompt(kept, "still here?").stopReason == "end_turn");
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: ask_user asks through a form elicitation tied to the call, and the answers reach the model",
          "[e2e][acp][elicitation]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("ask_user", R"({"questions":[
      {"question":"Which database?","header":"DB","type":"choice",
       "options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"a file"}]},
      {"question":"Anything else?","header":"Notes","type":"text","placeholder":"optional"}]})"));
  fake->push(textStream({"Postgres it is."}));
  fake->push(ScriptedReply::functionCall("ask_user", R"({"questions":[{"question":"Deploy now?","header":"Deploy","type":"yesno"}]})"));
  fake->push(textStream({"Understood."}));
  auto agent = startLathe(*fake);
  AcpClientOptions options;
  options.moreCapabilities = kForms;
  AcpTestClient client(*agent, options);
  std::string askedSession, askedCall;
  client.setHandler("elicitation/create", [&](const std::string&, const json::Value& request) {
    const json::Value& params = *member(request, "params");
    askedSession = json::getStr(params, "sessionId").value_or("");
    askedCall = json::getStr(params, "toolCallId").value_or("");
    const json::Value& props = *member(*member(params, "requestedSchema"), "properties");
    if (member(props, "q2")) return HandlerReply::result(R"({"action":"accept","content":{"q1":"Postgres","q2":"keep it small"}})");
    return HandlerReply::result(R"({"action":"decline"})");
  });
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  auto turn = client.prompt(sid, "set up storage");
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(turn.stopReason == "end_turn");
  CHECK(askedSession == sid);
  auto calls = ofKind(turn.updates, "tool_call");
  REQUIRE(calls.size() == 1);
  CHECK(field(calls[0], "name") == "ask_user");
  CHECK(askedCall == field(calls[0], "toolCallId"));
  CHECK(responseField(lastToolOutput(*fake), "output") == R"({"answers":{"0":"Postgres","1":"keep it small"}})");
  // The declaration the model got is Gemini CLI's.
  CHECK(fake->generateRequests().front().body.find(R"("name":"ask_user")") != std::string::npos);

  REQUIRE(client.prompt(sid, "deploy?").stopReason == "end_turn");
  CHECK_THAT(responseField(lastToolOutput(*fake), "output"), Catch::Contains("declined"));
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: without elicitation ask_user is not declared, and a cancelled turn withdraws its question",
          "[e2e][acp][elicitation]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(textStream({"no questions"}));
  {
    auto agent = startLathe(*fake);
    AcpTestClient client(*agent);
    REQUIRE(client.initialize());
    REQUIRE(client.prompt(client.newSession(ws.str()), "hi").stopReason == "end_turn");
    CHECK(fake->generateRequests().back().body.find("ask_user") == std::string::npos);
    finish(*agent);
  }
  fake->push(ScriptedReply::functionCall("ask_user", R"({"questions":[{"question":"Go?","header":"Go","type":"yesno"}]})"));
  auto agent = startLathe(*fake);
  AcpClientOptions options;
  options.moreCapabilities = kForms;
  AcpTestClient client(*agent, options);
  client.setHandler("elicitation/create", [](const std::string&, const json::Value&) { return HandlerReply::later(); });
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  int64_t prompt = client.request("session/prompt", promptParams(sid, "ask me"));
  std::string asked = waitForRequest(client, "elicitation/create");
  client.cancel(sid);
  CHECK(stopReasonOf(client.waitResponse(prompt, kCancelGuard)) == "cancelled");
  REQUIRE(client.waitFor([&](const json::Value& m) { return json::getStr(m, "method").value_or("") == "$/cancel_request"; }));
  CHECK(withdrawn(client) == std::vector<std::string>{asked});
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: server-everything's elicitation during its tool call is asked through the editor",
          "[e2e][acp][elicitation][mcp]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("everything__trigger-elicitation-request", "{}"));
  fake->push(textStream({"Thanks."}));
  fake->push(ScriptedReply::functionCall("everything__trigger-elicitation-request", "{}"));
  fake->push(textStream({"Okay."}));
  fake->push(ScriptedReply::functionCall("everything__trigger-url-elicitation",
                                         R"({"url":"https://example.com/login","message":"Log in there"})"));
  fake->push(textStream({"Logged in."}));
  auto agent = startLathe(*fake, LatheOptions{{"--yolo"}});
  AcpClientOptions options;
  options.moreCapabilities = kForms;
  AcpTestClient client(*agent, options);
  int asked = 0;
  std::string askedCall, askedMessage, askedUrl;
  client.setHandler("elicitation/create", [&](const std::string&, const json::Value& request) {
    const json::Value& params = *member(request, "params");
    askedCall = json::getStr(params, "toolCallId").value_or("");
    askedMessage = json::getStr(params, "message").value_or("");
    if (json::getStr(params, "mode") == "url") {
      askedUrl = json::getStr(params, "url").value_or("") + " " + json::getStr(params, "elicitationId").value_or("");
      return HandlerReply::result(R"({"action":"accept"})");
    }
    if (++asked == 1) return HandlerReply::result(R"({"action":"accept","content":{"name":"Ada Lovelace","check":true}})");
    return HandlerReply::result(R"({"action":"decline"})");
  });
  REQUIRE(client.initialize());
  std::string servers = json::build([&](json::Writer& w) {
    w.StartArray();
    w.StartObject();
    json::put(w, "name", "everything");
    json::put(w, "command", "node");
    json::put(w, "args", json::Raw{"[\"" + kEverything + "\",\"stdio\"]"});
    json::put(w, "env", json::Raw{"[]"});
    w.EndObject();
    w.EndArray();
  });
  std::string sid = client.newSession(ws.str(), servers);
  auto turn = client.prompt(sid, "ask me through the server", 60s);
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(turn.stopReason == "end_turn");
  REQUIRE(asked == 1);
  auto calls = ofKind(turn.updates, "tool_call");
  REQUIRE(calls.size() == 1);
  CHECK(askedCall == field(calls[0], "toolCallId"));
  CHECK(askedMessage == "The MCP server \"everything\" asks: Please provide inputs for the following fields:");
  CHECK(field(calls[0], "name") == "everything__trigger-elicitation-request");
  std::string output = lastToolOutput(*fake);
  CHECK_THAT(output, Catch::Contains("User provided the requested information"));
  CHECK_THAT(output, Catch::Contains("Ada Lovelace"));

  REQUIRE(client.prompt(sid, "again", 60s).stopReason == "end_turn");
  CHECK_THAT(lastToolOutput(*fake), Catch::Contains("declined"));
  // A URL to open (the client offers url elicitation): forwarded with its id.
  REQUIRE(client.prompt(sid, "log in", 60s).stopReason == "end_turn");
  CHECK_THAT(askedUrl, Catch::StartsWith("https://example.com/login "));
  CHECK(askedUrl.size() > std::string("https://example.com/login ").size());
  CHECK_THAT(lastToolOutput(*fake), Catch::Contains("User completed the URL elicitation flow"));
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: compression is a compaction where the client shows them, replayed only to such clients",
          "[e2e][acp][compaction]") {
  TempDir ws, state;
  auto fake = startFake();
  fake->push(textStream({"first answer"}));
  fake->push(ScriptedReply::stream({textChunk("<state_snapshot>SUMMARY OF IT</state_snapshot>"), finishChunk()}));
  std::string sid;
  {
    auto agent = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
    AcpClientOptions options;
    options.moreCapabilities = R"({"session":{"compaction":{}}})";
    AcpTestClient client(*agent, options);
    REQUIRE(client.initialize());
    sid = client.newSession(ws.str());
    REQUIRE(client.prompt(sid, std::string(4000, 'w') + " and more").stopReason == "end_turn");
    auto compress = client.prompt(sid, "/compress");
    REQUIRE(compress.stopReason == "end_turn");
    auto updates = ofKind(compress.updates, "compaction_update");
    REQUIRE(updates.size() == 2);
    CHECK(field(updates[0], "status") == "in_progress");
    CHECK(field(updates[1], "status") == "completed");
    CHECK(field(updates[0], "compactionId") == field(updates[1], "compactionId"));
    auto summary = ofKind(compress.updates, "compaction_summary_chunk");
    REQUIRE(summary.size() == 1);
    CHECK_THAT(chunkText(summary[0]), Catch::Contains("SUMMARY OF IT"));
    CHECK(joinedText(compress.updates, "agent_message_chunk").find("Compressed") == std::string::npos);
    checkAgainstSchema(client);
    finish(*agent);
  }
  for (bool shows : {true, false}) {
    auto agent = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
    AcpClientOptions options;
    if (shows) options.moreCapabilities = R"({"session":{"compaction":{}}})";
    AcpTestClient client(*agent, options);
    REQUIRE(client.initialize());
    REQUIRE(resultOf(client.call("session/load", loadParams(sid, ws.str()))));
    auto replay = client.notifications();
    CHECK(ofKind(replay, "compaction_update").size() == (shows ? 2u : 0u));
    CHECK(ofKind(replay, "compaction_summary_chunk").size() == (shows ? 1u : 0u));
    checkAgainstSchema(client);
    finish(*agent);
  }
}

TEST_CASE("e2e: live events are notices where the client shows them, else today's messages", "[e2e][acp][notice]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(textStream({"one"}));
  fake->push(textStream({"two"}));
  const std::string broken = R"([{"name":"broken","command":"/bin/false","args":[],"env":[]}])";
  for (bool shows : {true, false}) {
    auto agent = startLathe(*fake);
    AcpClientOptions options;
    if (shows) options.moreCapabilities = R"({"session":{"notices":{}}})";
    AcpTestClient client(*agent, options);
    REQUIRE(client.initialize());
    auto turn = client.prompt(client.newSession(ws.str(), broken), "hi");
    REQUIRE(turn.stopReason == "end_turn");
    auto notices = ofKind(turn.updates, "notice");
    const std::string said = joinedText(turn.updates, "agent_message_chunk");
    if (shows) {
      REQUIRE(notices.size() == 1);
      CHECK(field(notices[0], "severity") == "warning");
      CHECK_THAT(field(notices[0], "description"), Catch::Contains("MCP server \"broken\" failed to start"));
      CHECK(said.find("failed to start") == std::string::npos);
    } else {
      CHECK(notices.empty());
      CHECK(said.find("MCP server \"broken\" failed to start") != std::string::npos);
    }
    checkAgainstSchema(client);
    finish(*agent);
  }
}

TEST_CASE("e2e: usage_update.cost adds up per session and survives a reload, the prompt answer has the turn's usage",
          "[e2e][acp][cost]") {
  TempDir ws, state, home;
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("list_directory", R"({"dir_path":"."})"));
  fake->push(textStream({"listed"}));
  fake->push(textStream({"again"}));
  std::string sid;
  {
    auto agent = startLathe(*fake, {pricedArgs(home), "gemini-e2e-model", state.str()});
    AcpTestClient client(*agent);
    REQUIRE(client.initialize());
    sid = client.newSession(ws.str());
    auto turn = client.prompt(sid, "list");
    INFO("lathe stderr:\n" << agent->stderrText());
    REQUIRE(turn.stopReason == "end_turn");
    auto usage = ofKind(turn.updates, "usage_update");
    REQUIRE(usage.size() == 2);
    const json::Value* cost = member(*updateOf(usage[1]), "cost");
    REQUIRE(cost);
    CHECK(json::getStr(*cost, "currency") == "USD");
    CHECK((*cost)["amount"].GetDouble() == Approx(4.0));  // two replies at $2
    const json::Value& turnUsage = *member(*resultOf(turn.response), "usage");
    CHECK(json::getInt(turnUsage, "inputTokens") == 20);
    CHECK(json::getInt(turnUsage, "outputTokens") == 10);
    checkAgainstSchema(client, AcpSchema::unstable);
    finish(*agent);
  }
  auto agent = startLathe(*fake, {pricedArgs(home), "gemini-e2e-model", state.str()});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  REQUIRE(resultOf(client.call("session/load", loadParams(sid, ws.str()))));
  auto turn = client.prompt(sid, "once more");
  REQUIRE(turn.stopReason == "end_turn");
  auto usage = ofKind(turn.updates, "usage_update");
  REQUIRE(usage.size() == 1);
  CHECK((*member(*updateOf(usage[0]), "cost"))["amount"].GetDouble() == Approx(6.0));
  CHECK(json::getInt(*member(*resultOf(turn.response), "usage"), "inputTokens") == 10);
  checkAgainstSchema(client, AcpSchema::unstable);
  finish(*agent);
}

TEST_CASE("e2e: the effort picker (thought_level) sets the thinking of the next request", "[e2e][acp][effort]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(textStream({"one"}));
  fake->push(textStream({"two"}));
  auto agent = startLathe(*fake, {{}, "gemini-2.5-flash", ""});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  Message created = client.call("session/new", newSessionParams(ws.str()));
  REQUIRE(resultOf(created));
  std::string sid = json::getStr(*resultOf(created), "sessionId").value_or("");
  const json::Value* effort = nullptr;
  for (const auto& option : member(*resultOf(created), "configOptions")->GetArray()) {
    if (json::getStr(option, "id") == "effort") effort = &option;
  }
  REQUIRE(effort);
  CHECK(json::getStr(*effort, "category") == "thought_level");
  CHECK(json::getStr(*effort, "currentValue") == "default");
  CHECK((*effort)["options"].Size() == 4);  // default, low, medium, high
  REQUIRE(client.prompt(sid, "one").stopReason == "end_turn");
  CHECK(fake->generateRequests().back().body.find(R"("thinkingBudget":8192)") != std::string::npos);
  Message set = client.call("session/set_config_option", effortParams(sid, "high"));
  REQUIRE(resultOf(set));
  REQUIRE(client.prompt(sid, "two").stopReason == "end_turn");
  CHECK(fake->generateRequests().back().body.find(R"("thinkingBudget":24576)") != std::string::npos);
  Message bad = client.call("session/set_config_option", effortParams(sid, "extreme"));
  CHECK(errorCode(bad) == -32602);
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: tool calls carry their name, chunks their message id, both replayed as they were", "[e2e][acp]") {
  TempDir ws, state;
  auto fake = startFake();
  fake->push(ScriptedReply::stream({textChunk("Looking. "), functionCallChunk("list_directory", R"({"dir_path":"."})"),
                                    finishChunk()}));
  fake->push(textStream({"It is ", "empty."}));
  std::string sid;
  std::vector<std::string> liveIds;
  {
    auto agent = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
    AcpTestClient client(*agent);
    REQUIRE(client.initialize());
    sid = client.newSession(ws.str());
    auto turn = client.prompt(sid, "what is here?");
    REQUIRE(turn.stopReason == "end_turn");
    CHECK(field(ofKind(turn.updates, "tool_call").at(0), "name") == "list_directory");
    auto chunks = ofKind(turn.updates, "agent_message_chunk");
    REQUIRE(chunks.size() == 3);
    for (const auto& chunk : chunks) liveIds.push_back(field(chunk, "messageId"));
    CHECK_FALSE(liveIds[0].empty());
    CHECK(liveIds[1] == liveIds[2]);  // one reply
    CHECK(liveIds[0] != liveIds[1]);
    checkAgainstSchema(client);
    finish(*agent);
  }
  auto agent = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  REQUIRE(resultOf(client.call("session/load", loadParams(sid, ws.str()))));
  auto replay = client.notifications();
  auto user = ofKind(replay, "user_message_chunk");
  REQUIRE(user.size() == 1);
  CHECK(field(user[0], "messageId").starts_with("msg_"));
  auto answers = ofKind(replay, "agent_message_chunk");
  REQUIRE(answers.size() == 2);  // each message whole, with its id
  CHECK(field(answers[0], "messageId") == liveIds[0]);
  CHECK(field(answers[1], "messageId") == liveIds[1]);
  CHECK(chunkText(answers[1]) == "It is empty.");
  CHECK(field(ofKind(replay, "tool_call").at(0), "name") == "list_directory");
  checkAgainstSchema(client);
  finish(*agent);
}

}  // namespace lathe::testing::e2e
