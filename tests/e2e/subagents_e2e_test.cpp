// End-to-end tests of sub-agents (invoke_agent) through the binary and the fake
// model: a child's requests carry its own instructions and tools; children run
// in parallel; cancelling the turn or one child; limits with the grace request;
// permissions raised in a child, answered and refused; custom agents from
// files (the workspace's under consent); updates valid against the schema with
// and without the client's sub-agent capability; and session/load replaying a
// session with a child. HOME and GEMINI_CLI_HOME are temporary folders.
#include "tests/e2e/e2e_support.h"

#include <set>

namespace lathe::testing::e2e {
namespace {

// What only the parent's requests hold (the guide's list of sub-agents), and
// what only a child's hold (its own instructions).
constexpr const char* kParent = "Available sub-agents:";
constexpr const char* kInvestigator = "You are the Codebase Investigator";
constexpr const char* kGeneralist = "# Working as a sub-agent";
// The client capability of editors that show child sessions.
constexpr const char* kShowsChildren = R"({"subagents":{}})";

std::string invokeArgs(const std::string& agent, const std::string& prompt) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "agent_name", agent);
    json::put(w, "prompt", prompt);
  });
}

std::string writeArgs(const fs::path& file) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "file_path", file.string());
    json::put(w, "content", "notes\n");
  });
}

std::string investigatorReport() {
  return R"({"report":{"SummaryOfFindings":"greet is defined in src/greet.cpp.","ExplorationTrace":["read src/greet.cpp"],)"
         R"("RelevantLocations":[{"FilePath":"src/greet.cpp","Reasoning":"defines greet","KeySymbols":["greet"]}]}})";
}

ScriptedReply parentReply(ScriptedReply reply) { return std::move(reply).forRequestsWith(kParent); }
ScriptedReply childReply(ScriptedReply reply, const std::string& marker) {
  return std::move(reply).forRequestsWith(marker);
}

// The parent hands writing `file` to the generalist, whose first reply asks
// to write it (held until released, with `held`); `then` is the child's reply
// after that call's response, and `done` the parent's last words.
void scriptDelegatedWrite(FakeGeminiServer& fake, const fs::path& file, ScriptedReply then, bool held = false) {
  fake.push(parentReply(ScriptedReply::functionCall("invoke_agent", invokeArgs("generalist", "Write the notes file"))));
  ScriptedReply write = childReply(ScriptedReply::functionCall("write_file", writeArgs(file)), "Write the notes file");
  fake.push(held ? std::move(write).heldUntilReleased() : std::move(write));
  fake.push(std::move(then));
  fake.push(parentReply(ScriptedReply::text("Done.")));
}

json::Document parsed(const std::string& text) {
  auto doc = json::parse(text);
  REQUIRE(doc);
  return std::move(doc).value();
}

std::string systemOf(const RecordedRequest& request) {
  auto body = parsed(request.body);
  const json::Value* instruction = member(body, "systemInstruction");
  REQUIRE(instruction);
  return json::getStr((*instruction)["parts"][0], "text").value_or("");
}

std::set<std::string> toolsOf(const RecordedRequest& request) {
  auto body = parsed(request.body);
  std::set<std::string> names;
  const json::Value* tools = member(body, "tools");
  if (!tools || !tools->IsArray()) return names;
  for (const auto& group : tools->GetArray()) {
    const json::Value* declarations = member(group, "functionDeclarations");
    if (!declarations) continue;
    for (const auto& d : declarations->GetArray()) names.insert(json::getStr(d, "name").value_or(""));
  }
  return names;
}

std::vector<RecordedRequest> requestsWith(const FakeGeminiServer& fake, const std::string& marker) {
  std::vector<RecordedRequest> out;
  for (auto& r : fake.generateRequests()) {
    if (r.body.find(marker) != std::string::npos) out.push_back(r);
  }
  return out;
}

// A child's requests: they hold its marker, and are not the parent's (whose
// history holds the task it gave).
std::vector<RecordedRequest> childRequests(const FakeGeminiServer& fake, const std::string& marker) {
  std::vector<RecordedRequest> out;
  for (auto& r : requestsWith(fake, marker)) {
    if (r.body.find(kParent) == std::string::npos) out.push_back(r);
  }
  return out;
}

// The function response the parent's model got for invoke_agent, in its request `index`.
std::string parentResponse(const FakeGeminiServer& fake, size_t index = 1) {
  auto parent = requestsWith(fake, kParent);
  REQUIRE(parent.size() > index);
  auto responses = lastFunctionResponses(parent[index].body);
  REQUIRE_FALSE(responses.empty());
  return responses[0].responseJson;
}

std::vector<Message> updatesOfSession(const AcpTestClient& client, const std::string& sid) {
  std::vector<Message> out;
  for (const auto& m : client.notifications()) {
    if (sessionOf(m) == sid) out.push_back(m);
  }
  return out;
}

const json::Value* stateOf(const Message& m) {
  const json::Value* update = updateOf(m);
  const json::Value* state = update ? member(*update, "state") : nullptr;
  return state && state->IsObject() ? state : nullptr;
}

struct Setup {
  TempDir ws;
  TempDir home;
  std::unique_ptr<FakeGeminiServer> fake = startFake();
  std::unique_ptr<Subprocess> lathe;
  std::unique_ptr<AcpTestClient> client;
  std::string session;

  explicit Setup(AcpClientOptions options = {}, std::vector<std::string> args = {}, std::string state = "") {
    writeFile(ws.path / "src/greet.cpp", "void greet() {}\n");
    fs::create_directories(home.path / ".gemini");
    start(std::move(options), std::move(args), std::move(state));
  }
  void start(AcpClientOptions options, std::vector<std::string> args = {}, std::string state = "") {
    LatheOptions latheOptions{std::move(args), "gemini-e2e-model", std::move(state)};
    lathe = startLathe(*fake, latheOptions, {{"GEMINI_CLI_HOME", home.str()}, {"HOME", home.str()}});
    client = std::make_unique<AcpTestClient>(*lathe, options);
    REQUIRE(client->initialize());
    session = client->newSession(ws.str());
    REQUIRE_FALSE(session.empty());
  }
  void stop() {
    client.reset();
    if (lathe) finish(*lathe);
    lathe.reset();
  }
  // Writes a file of the person's home (settings, agents) and starts Lathe again to read it.
  void restartWith(const std::string& homeFile, const std::string& text, AcpClientOptions options = {}) {
    writeFile(home.path / homeFile, text);
    stop();
    start(std::move(options));
  }
  ~Setup() { stop(); }
};

}  // namespace

TEST_CASE("e2e: a sub-agent's requests carry its own instructions and tools, and its report returns", "[e2e][subagents]") {
  Setup s;
  s.fake->push(parentReply(ScriptedReply::functionCall(
      "invoke_agent", invokeArgs("codebase_investigator", "Find where greet is defined"))));
  s.fake->push(childReply(ScriptedReply::functionCall("read_file", R"({"file_path":"src/greet.cpp"})"), kInvestigator));
  s.fake->push(childReply(ScriptedReply::functionCall("complete_task", investigatorReport()), kInvestigator));
  s.fake->push(parentReply(ScriptedReply::text("greet lives in src/greet.cpp.")));
  auto outcome = s.client->prompt(s.session, "where is greet?");
  INFO("lathe stderr:\n" << s.lathe->stderrText());
  REQUIRE(outcome.stopReason == "end_turn");
  CHECK(s.fake->pendingReplies() == 0);
  CHECK(s.fake->violations().empty());

  auto parent = requestsWith(*s.fake, kParent);
  auto child = childRequests(*s.fake, kInvestigator);
  REQUIRE(parent.size() == 2);
  REQUIRE(child.size() == 2);  // after complete_task the child asks nothing more
  CHECK(toolsOf(parent[0]).contains("invoke_agent"));
  CHECK(systemOf(parent[0]).find("`codebase_investigator`") != std::string::npos);
  CHECK(systemOf(parent[0]).find("`generalist`") != std::string::npos);
  const std::set<std::string> investigatorTools{"list_directory", "read_file",    "read_many_files",   "glob",
                                                "grep_search",    "read_outline", "run_shell_command", "complete_task"};
  CHECK(toolsOf(child[0]) == investigatorTools);
  CHECK(systemOf(child[0]).find("complete_task") != std::string::npos);
  CHECK(child[0].body.find("<objective>\\nFind where greet is defined\\n</objective>") != std::string::npos);
  CHECK(child[0].body.find("where is greet?") == std::string::npos);  // the parent's conversation stays its own
  CHECK(responseField(lastFunctionResponses(child[1].body)[0].responseJson, "output").find("void greet()") !=
        std::string::npos);

  std::string response = parentResponse(*s.fake);
  CHECK(responseField(response, "output").find("Termination Reason: GOAL") != std::string::npos);
  CHECK(responseField(response, "output").find("greet is defined in src/greet.cpp.") != std::string::npos);

  // Without the client's sub-agent capability, everything is the parent's: the
  // call streams the child's progress and ends with its report.
  for (const auto& m : outcome.updates) CHECK(sessionOf(m) == s.session);
  auto updates = ofKind(outcome.updates, "tool_call_update");
  std::string progress;
  for (const auto& u : updates) {
    for (const auto& text : contentTexts(u)) progress += text + "\n";
  }
  CHECK(progress.find("**Codebase Investigator Agent** ·") != std::string::npos);
  REQUIRE_FALSE(updates.empty());
  CHECK(field(updates.back(), "status") == "completed");
  CHECK(contentTexts(updates.back()).at(0).find("**Key files**") != std::string::npos);
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e: sub-agents of one reply run at the same time", "[e2e][subagents]") {
  Setup s;
  s.fake->push(parentReply(ScriptedReply::stream({functionCallChunk("invoke_agent", invokeArgs("generalist", "Task ALPHA")),
                                                  functionCallChunk("invoke_agent", invokeArgs("generalist", "Task BETA")),
                                                  finishChunk()})));
  // Each child's first reply waits until both children asked: one after the other would never get there.
  s.fake->push(childReply(ScriptedReply::functionCall("read_file", R"({"file_path":"src/greet.cpp"})"), "Task ALPHA")
                   .heldUntil(3));
  s.fake->push(childReply(ScriptedReply::functionCall("glob", R"({"pattern":"**/*.cpp"})"), "Task BETA").heldUntil(3));
  s.fake->push(childReply(ScriptedReply::text("ALPHA done."), "Task ALPHA"));
  s.fake->push(childReply(ScriptedReply::text("BETA done."), "Task BETA"));
  s.fake->push(parentReply(ScriptedReply::text("Both done.")));
  auto outcome = s.client->prompt(s.session, "do both");
  INFO("lathe stderr:\n" << s.lathe->stderrText());
  REQUIRE(outcome.stopReason == "end_turn");
  CHECK(s.fake->violations().empty());
  CHECK(childRequests(*s.fake, "Task ALPHA").size() == 2);
  CHECK(childRequests(*s.fake, "Task BETA").size() == 2);
  auto parent = requestsWith(*s.fake, kParent);
  REQUIRE(parent.size() == 2);
  auto responses = lastFunctionResponses(parent[1].body);
  REQUIRE(responses.size() == 2);
  CHECK(responseField(responses[0].responseJson, "output").find("ALPHA done.") != std::string::npos);
  CHECK(responseField(responses[1].responseJson, "output").find("BETA done.") != std::string::npos);
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e: cancelling the turn cancels a running sub-agent", "[e2e][subagents]") {
  AcpClientOptions options;
  options.moreCapabilities = kShowsChildren;
  Setup s(options);
  s.fake->push(parentReply(ScriptedReply::functionCall("invoke_agent", invokeArgs("generalist", "Take forever"))));
  s.fake->push(childReply(ScriptedReply::hang({textChunk("Working on it")}), "Take forever"));
  auto id = s.client->request("session/prompt", promptParams(s.session, "go"));
  REQUIRE(s.fake->waitForRequests(2, kCancelGuard));
  s.client->cancel(s.session);
  auto response = s.client->waitResponse(id, kCancelGuard);
  INFO("lathe stderr:\n" << s.lathe->stderrText());
  REQUIRE(response);
  CHECK(stopReasonOf(response) == "cancelled");
  CHECK(s.fake->waitForAbandonedStreams(1, kCancelGuard));
  // The child's last state, on the parent's stream before the answer: idle, cancelled.
  std::optional<std::string> last;
  for (const auto& m : ofKind(updatesOfSession(*s.client, s.session), "subagent_update")) {
    if (const json::Value* state = stateOf(m)) last = json::getStr(*state, "stopReason").value_or(json::getStr(*state, "state").value_or(""));
  }
  CHECK(last == "cancelled");
  checkAgainstSchema(*s.client, AcpSchema::unstable);
}

TEST_CASE("e2e: an editor that shows child sessions stops one child while the parent goes on", "[e2e][subagents]") {
  AcpClientOptions options;
  options.moreCapabilities = kShowsChildren;
  Setup s(options);
  s.fake->push(parentReply(ScriptedReply::functionCall("invoke_agent", invokeArgs("generalist", "Take forever"))));
  s.fake->push(childReply(ScriptedReply::hang({textChunk("Working on it")}), "Take forever"));
  s.fake->push(parentReply(ScriptedReply::text("It was stopped; moving on.")));
  auto id = s.client->request("session/prompt", promptParams(s.session, "go"));
  Message announce = s.client->waitFor([&](const json::Value& m) {
    const json::Value* params = member(m, "params");
    const json::Value* update = params ? member(*params, "update") : nullptr;
    return update && json::getStr(*update, "sessionUpdate").value_or("") == "subagent_update";
  });
  REQUIRE(announce);
  const std::string child = field(announce, "sessionId");
  CHECK(child == s.session + ".call_1");
  REQUIRE(s.fake->waitForRequests(2, kCancelGuard));
  s.client->cancel(child);
  auto response = s.client->waitResponse(id, kCancelGuard);
  INFO("lathe stderr:\n" << s.lathe->stderrText());
  REQUIRE(response);
  CHECK(stopReasonOf(response) == "end_turn");
  std::string error = responseField(parentResponse(*s.fake), "error");
  CHECK(error.find("the user stopped it before it finished (ABORTED)") != std::string::npos);
  checkAgainstSchema(*s.client, AcpSchema::unstable);
}

// The generalist limited to one model request, started on a task it spends that request on.
void delegateWithOneRequest(Setup& s) {
  s.restartWith(".gemini/settings.json", R"({"agents":{"overrides":{"generalist":{"runConfig":{"maxTurns":1}}}}})");
  s.fake->push(parentReply(ScriptedReply::functionCall("invoke_agent", invokeArgs("generalist", "Read everything"))));
  s.fake->push(childReply(ScriptedReply::functionCall("read_file", R"({"file_path":"src/greet.cpp"})"), "Read everything"));
}

TEST_CASE("e2e: a sub-agent at its request limit gets one grace request, then a clear error", "[e2e][subagents]") {
  Setup s;
  delegateWithOneRequest(s);
  s.fake->push(childReply(ScriptedReply::text("I only read greet.cpp so far."), "You have reached its limit"));
  s.fake->push(parentReply(ScriptedReply::text("The sub-agent ran out.")));
  auto outcome = s.client->prompt(s.session, "read");
  INFO("lathe stderr:\n" << s.lathe->stderrText());
  REQUIRE(outcome.stopReason == "end_turn");
  auto child = childRequests(*s.fake, "Read everything");
  REQUIRE(child.size() == 2);  // its one request, and the grace request
  CHECK(child[1].body.find("You have reached its limit of 1 model requests") != std::string::npos);
  std::string error = responseField(parentResponse(*s.fake), "error");
  CHECK(error.find("it reached its limit of 1 model requests before it finished (MAX_TURNS)") != std::string::npos);
  CHECK(error.find("I only read greet.cpp so far.") != std::string::npos);  // nothing it said is lost
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e: a sub-agent that finishes in its grace request hands back its report", "[e2e][subagents]") {
  Setup s;
  delegateWithOneRequest(s);
  s.fake->push(childReply(ScriptedReply::functionCall("complete_task", R"({"result":{"response":"Partial: greet only."}})"),
                          "You have reached its limit"));
  s.fake->push(parentReply(ScriptedReply::text("ok")));
  auto outcome = s.client->prompt(s.session, "read");
  REQUIRE(outcome.stopReason == "end_turn");
  std::string output = responseField(parentResponse(*s.fake), "output");
  CHECK(output.find("Termination Reason: GOAL") != std::string::npos);
  CHECK(output.find("Partial: greet only.") != std::string::npos);
}

TEST_CASE("e2e: a sub-agent's permission question names it and its task, allowed, the edit lands", "[e2e][subagents]") {
  Setup s;
  const fs::path file = s.ws.path / "notes.txt";
  scriptDelegatedWrite(*s.fake, file, childReply(ScriptedReply::text("Wrote it."), "Write the notes file"));
  auto outcome = s.client->prompt(s.session, "notes");
  INFO("lathe stderr:\n" << s.lathe->stderrText());
  REQUIRE(outcome.stopReason == "end_turn");
  auto asks = permissionRequests(*s.client);
  REQUIRE(asks.size() == 1);
  const json::Value& params = (*asks[0])["params"];
  CHECK(json::getStr(params, "sessionId").value_or("") == s.session);
  CHECK(json::getStr(params["toolCall"], "toolCallId").value_or("") == "call_1/call_1");
  CHECK(json::getStr(params["toolCall"], "title").value_or("").starts_with("[Generalist Agent] "));
  CHECK(json::stringify(params["toolCall"]["content"]).find("working on: Write the notes file") != std::string::npos);
  CHECK(readFile(file) == "notes\n");
  // The question's card ends as the child's call did.
  bool ended = false;
  for (const auto& u : ofKind(outcome.updates, "tool_call_update")) {
    ended = ended || (field(u, "toolCallId") == "call_1/call_1" && field(u, "status") == "completed");
  }
  CHECK(ended);
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e: a refused permission in a sub-agent reaches the child, and the parent goes on", "[e2e][subagents]") {
  AcpClientOptions options;
  options.permissionKind = "reject_once";
  options.moreCapabilities = kShowsChildren;
  Setup s(options);
  const fs::path file = s.ws.path / "notes.txt";
  scriptDelegatedWrite(*s.fake, file, childReply(ScriptedReply::text("The write was declined."), "rejected this tool call"));
  auto outcome = s.client->prompt(s.session, "notes");
  INFO("lathe stderr:\n" << s.lathe->stderrText());
  REQUIRE(outcome.stopReason == "end_turn");
  CHECK_FALSE(fs::exists(file));
  auto asks = permissionRequests(*s.client);
  REQUIRE(asks.size() == 1);
  const json::Value& params = (*asks[0])["params"];
  const std::string child = s.session + ".call_1";
  CHECK(json::getStr(params, "sessionId").value_or("") == child);  // the child's own session
  CHECK(json::getStr(params["toolCall"], "title").value_or("").starts_with("[Generalist Agent] "));
  // requires_action while asked, running again after, idle at the end.
  std::vector<std::string> states;
  for (const auto& m : ofKind(updatesOfSession(*s.client, s.session), "subagent_update")) {
    if (const json::Value* state = stateOf(m)) states.push_back(json::getStr(*state, "state").value_or(""));
  }
  CHECK(states == std::vector<std::string>{"running", "requires_action", "running", "idle"});
  std::string output = responseField(parentResponse(*s.fake), "output");
  CHECK(output.find("The write was declined.") != std::string::npos);
  checkAgainstSchema(*s.client, AcpSchema::unstable);
}

TEST_CASE("e2e: a running sub-agent follows its parent's mode (plan mode refuses its edit)", "[e2e][subagents]") {
  Setup s;
  const fs::path file = s.ws.path / "notes.txt";
  scriptDelegatedWrite(*s.fake, file, childReply(ScriptedReply::text("Plan mode refused it."), "plan mode"), true);
  auto id = s.client->request("session/prompt", promptParams(s.session, "notes"));
  REQUIRE(s.fake->waitForHeld(1, kCancelGuard));  // the child asked; its reply waits
  auto set = s.client->call("session/set_mode", json::buildObject([&](json::Writer& w) {
                              json::put(w, "sessionId", s.session);
                              json::put(w, "modeId", "plan");
                            }));
  REQUIRE(set);
  REQUIRE(member(*set, "result"));
  s.fake->releaseHeld();
  auto response = s.client->waitResponse(id, kCancelGuard);
  INFO("lathe stderr:\n" << s.lathe->stderrText());
  REQUIRE(response);
  CHECK(stopReasonOf(response) == "end_turn");
  CHECK(permissionRequests(*s.client).empty());  // refused, never asked
  CHECK_FALSE(fs::exists(file));
  CHECK(responseField(parentResponse(*s.fake), "output").find("Plan mode refused it.") != std::string::npos);
  CHECK(s.fake->violations().empty());
}

TEST_CASE("e2e: with the client's capability a child is a session of its own, announced first", "[e2e][subagents]") {
  AcpClientOptions options;
  options.moreCapabilities = kShowsChildren;
  Setup s(options);
  s.fake->push(parentReply(ScriptedReply::functionCall(
      "invoke_agent", invokeArgs("codebase_investigator", "Find where greet is defined"))));
  s.fake->push(childReply(ScriptedReply::functionCall("read_file", R"({"file_path":"src/greet.cpp"})"), kInvestigator));
  // A text answer ends the child too (a plain answer instead of complete_task).
  s.fake->push(childReply(textStream({"Looking at ", "greet."}), kInvestigator));
  s.fake->push(parentReply(ScriptedReply::text("Found it.")));
  auto outcome = s.client->prompt(s.session, "where is greet?");
  INFO("lathe stderr:\n" << s.lathe->stderrText());
  REQUIRE(outcome.stopReason == "end_turn");
  const std::string child = s.session + ".call_1";
  auto all = s.client->notifications();
  size_t announced = all.size(), firstChildUpdate = all.size();
  for (size_t i = 0; i < all.size(); ++i) {
    if (announced == all.size() && kindOf(all[i]) == "subagent_update" && field(all[i], "sessionId") == child) announced = i;
    if (firstChildUpdate == all.size() && sessionOf(all[i]) == child) firstChildUpdate = i;
  }
  REQUIRE(announced < all.size());
  CHECK(announced < firstChildUpdate);
  const json::Value* update = updateOf(all[announced]);
  CHECK(json::getStr(*update, "title").value_or("") == "Codebase Investigator Agent");
  CHECK(json::getStr(*update, "description").value_or("") == "Find where greet is defined");
  CHECK(member(*member(*update, "capabilities"), "cancel"));
  CHECK(json::getStr((*update)["_meta"]["lathe"], "toolCallId").value_or("") == "call_1");
  auto childUpdates = updatesOfSession(*s.client, child);
  REQUIRE_FALSE(childUpdates.empty());
  CHECK(kindOf(childUpdates[0]) == "session_message");
  CHECK(kindOf(childUpdates[1]) == "session_message_chunk");
  CHECK(joinedText(childUpdates, "agent_message_chunk") == "Looking at greet.");
  auto childCalls = ofKind(childUpdates, "tool_call");
  REQUIRE(childCalls.size() == 1);
  CHECK(field(childCalls[0], "toolCallId") == "call_1");
  CHECK(field(childCalls[0], "kind") == "read");
  for (const auto& m : updatesOfSession(*s.client, s.session)) CHECK(field(m, "toolCallId") != "call_1/call_1");
  std::string output = responseField(parentResponse(*s.fake), "output");
  CHECK(output.find("Looking at greet.") != std::string::npos);
  checkAgainstSchema(*s.client, AcpSchema::unstable);
}

TEST_CASE("e2e: a custom sub-agent from the person's agents folder", "[e2e][subagents]") {
  Setup s;
  s.restartWith(".gemini/agents/reviewer.md",
                "---\nname: reviewer\ndescription: Reviews code for mistakes.\ntools:\n  - read_file\n"
                "model: gemini-custom-model\ntemperature: 0.2\n---\nYou are REVIEWER-42. Review ${query} carefully.\n");
  s.fake->push(parentReply(ScriptedReply::functionCall("invoke_agent", invokeArgs("reviewer", "src/greet.cpp"))));
  s.fake->push(childReply(ScriptedReply::functionCall("complete_task", R"({"result":"Looks fine."})"), "REVIEWER-42"));
  s.fake->push(parentReply(ScriptedReply::text("Reviewed.")));
  auto outcome = s.client->prompt(s.session, "review greet");
  INFO("lathe stderr:\n" << s.lathe->stderrText());
  REQUIRE(outcome.stopReason == "end_turn");
  auto child = childRequests(*s.fake, "REVIEWER-42");
  REQUIRE(child.size() == 1);
  CHECK(child[0].model == "gemini-custom-model");
  CHECK(toolsOf(child[0]) == std::set<std::string>{"read_file", "complete_task"});
  CHECK(systemOf(child[0]).starts_with("You are REVIEWER-42. Review src/greet.cpp carefully."));
  CHECK(child[0].body.find("\"temperature\":0.2") != std::string::npos);
  CHECK(systemOf(requestsWith(*s.fake, kParent)[0]).find("`reviewer`: Reviews code for mistakes.") != std::string::npos);
  CHECK(responseField(parentResponse(*s.fake), "output").find("Looks fine.") != std::string::npos);
}

TEST_CASE("e2e: a bad agent file is told with its file, line and key, the others still work", "[e2e][subagents]") {
  Setup s;
  s.restartWith(".gemini/agents/broken.md", "---\nname: broken\ndescription: x\nmax_turns: -3\n---\nBody\n");
  s.fake->push(ScriptedReply::text("hi"));
  auto outcome = s.client->prompt(s.session, "hello");
  REQUIRE(outcome.stopReason == "end_turn");
  std::string cards = cardTexts(outcome.updates);
  CHECK(cards.find((s.home.path / ".gemini/agents/broken.md").string() + ":4: max_turns: must be a positive whole number") !=
        std::string::npos);
  auto listing = s.client->prompt(s.session, "/agents");
  std::string text = joinedText(listing.updates, "agent_message_chunk");
  CHECK(text.find("`codebase_investigator`") != std::string::npos);
  CHECK(text.find("broken.md:4: max_turns") != std::string::npos);
}

TEST_CASE("e2e: a workspace's sub-agent that can run programs waits for consent", "[e2e][subagents]") {
  Setup s;
  writeFile(s.ws.path / ".gemini/agents/builder.md",
            "---\nname: builder\ndescription: Builds the project.\ntools: [run_shell_command]\n---\nYou are BUILDER-7.\n");
  s.stop();
  SECTION("allowed, it can be started") {
    s.start({});
    s.fake->push(parentReply(ScriptedReply::functionCall("invoke_agent", invokeArgs("builder", "build it"))));
    s.fake->push(childReply(ScriptedReply::text("Built."), "BUILDER-7"));
    s.fake->push(parentReply(ScriptedReply::text("ok")));
    auto outcome = s.client->prompt(s.session, "build");
    REQUIRE(outcome.stopReason == "end_turn");
    auto asks = permissionRequests(*s.client);
    REQUIRE(asks.size() == 1);
    std::string question = json::stringify((*asks[0])["params"]["toolCall"]);
    CHECK(question.find("sub-agent \\\"builder\\\"") != std::string::npos);
    CHECK(question.find("run_shell_command") != std::string::npos);
    CHECK(responseField(parentResponse(*s.fake), "output").find("Built.") != std::string::npos);
  }
  SECTION("refused, the model cannot start it") {
    AcpClientOptions options;
    options.permissionKind = "reject_once";
    s.start(options);
    s.fake->push(parentReply(ScriptedReply::functionCall("invoke_agent", invokeArgs("builder", "build it"))));
    s.fake->push(parentReply(ScriptedReply::text("ok")));
    auto outcome = s.client->prompt(s.session, "build");
    REQUIRE(outcome.stopReason == "end_turn");
    CHECK(childRequests(*s.fake, "BUILDER-7").empty());
    CHECK(systemOf(requestsWith(*s.fake, kParent)[0]).find("`builder`") == std::string::npos);
    CHECK(responseField(parentResponse(*s.fake), "error").find("Subagent 'builder' not found") != std::string::npos);
  }
}

TEST_CASE("e2e: with sub-agents off, invoke_agent is not declared and the guide lists none", "[e2e][subagents]") {
  Setup s;
  s.restartWith(".gemini/settings.json", R"({"experimental":{"enableAgents":false}})");
  s.fake->push(ScriptedReply::text("hi"));
  REQUIRE(s.client->prompt(s.session, "hello").stopReason == "end_turn");
  auto requests = s.fake->generateRequests();
  REQUIRE(requests.size() == 1);
  CHECK_FALSE(toolsOf(requests[0]).contains("invoke_agent"));
  CHECK(toolsOf(requests[0]).contains("read_file"));
  CHECK(requests[0].body.find(kParent) == std::string::npos);
}

TEST_CASE("e2e: the person's policy rule for one sub-agent and their hooks judge its calls", "[e2e][subagents]") {
  Setup s;
  writeFile(s.home.path / ".gemini/policies/rules.toml",
            "[[rule]]\ntoolName = \"glob\"\nsubagent = \"codebase_investigator\"\ndecision = \"deny\"\npriority = 10\n"
            "denyMessage = \"Investigators do not glob.\"\n");
  s.restartWith(".gemini/settings.json",
                R"({"hooks":{"BeforeTool":[{"matcher":"read_file","hooks":[{"type":"command","name":"guard",)"
                R"("command":"cat >/dev/null; echo '{\"decision\":\"deny\",\"reason\":\"no reading here\"}'"}]}]}})");
  s.fake->push(parentReply(ScriptedReply::functionCall(
      "invoke_agent", invokeArgs("codebase_investigator", "Find where greet is defined"))));
  s.fake->push(childReply(ScriptedReply::stream({functionCallChunk("glob", R"({"pattern":"**/*.cpp"})"),
                                                 functionCallChunk("read_file", R"({"file_path":"src/greet.cpp"})"),
                                                 finishChunk()}),
                          kInvestigator));
  s.fake->push(childReply(ScriptedReply::functionCall("complete_task", investigatorReport()), kInvestigator));
  s.fake->push(parentReply(ScriptedReply::text("Done.")));
  auto outcome = s.client->prompt(s.session, "where is greet?");
  INFO("lathe stderr:\n" << s.lathe->stderrText());
  REQUIRE(outcome.stopReason == "end_turn");
  auto child = childRequests(*s.fake, kInvestigator);
  REQUIRE(child.size() == 2);
  auto responses = lastFunctionResponses(child[1].body);
  REQUIRE(responses.size() == 2);
  CHECK(responseField(responses[0].responseJson, "error") == "Refused by policy. Investigators do not glob.");
  CHECK_THAT(responses[1].responseJson, Catch::Contains("no reading here"));
  CHECK(responses[1].responseJson.find("void greet()") == std::string::npos);
}

TEST_CASE("e2e: session/load replays a session with a child", "[e2e][subagents]") {
  TempDir state;
  AcpClientOptions options;
  options.moreCapabilities = kShowsChildren;
  Setup s(options, {}, state.str());
  s.fake->push(parentReply(ScriptedReply::functionCall("invoke_agent", invokeArgs("generalist", "Say CHILD-WORDS"))));
  s.fake->push(childReply(ScriptedReply::text("CHILD-WORDS"), "Say CHILD-WORDS"));
  s.fake->push(parentReply(ScriptedReply::text("PARENT-WORDS")));
  REQUIRE(s.client->prompt(s.session, "go").stopReason == "end_turn");
  const std::string sid = s.session;
  const std::string child = sid + ".call_1";
  s.stop();

  auto load = [&](bool subagents) {
    AcpClientOptions again;
    if (subagents) again.moreCapabilities = kShowsChildren;
    auto agent = startLathe(*s.fake, {{}, "gemini-e2e-model", state.str()},
                            {{"GEMINI_CLI_HOME", s.home.str()}, {"HOME", s.home.str()}});
    auto client = std::make_unique<AcpTestClient>(*agent, again);
    REQUIRE(client->initialize());
    auto response = client->call("session/load", json::buildObject([&](json::Writer& w) {
                                   json::put(w, "sessionId", sid);
                                   json::put(w, "cwd", s.ws.str());
                                   json::put(w, "mcpServers", json::Raw{"[]"});
                                 }));
    REQUIRE(response);
    REQUIRE(member(*response, "result"));
    return std::pair{std::move(agent), std::move(client)};
  };
  SECTION("to an editor that shows child sessions: the child's own session too") {
    auto [agent, client] = load(true);
    auto replayed = client->notifications();
    CHECK(joinedText(updatesOfSession(*client, child), "agent_message_chunk") == "CHILD-WORDS");
    CHECK(joinedText(updatesOfSession(*client, sid), "agent_message_chunk").find("PARENT-WORDS") != std::string::npos);
    CHECK_FALSE(ofKind(updatesOfSession(*client, sid), "subagent_update").empty());
    checkAgainstSchema(*client, AcpSchema::unstable);
    client.reset();
    finish(*agent);
  }
  SECTION("to any other: the parent's history, with the child's report on its call") {
    auto [agent, client] = load(false);
    CHECK(updatesOfSession(*client, child).empty());
    CHECK(ofKind(updatesOfSession(*client, sid), "subagent_update").empty());
    CHECK(cardTexts(updatesOfSession(*client, sid)).find("CHILD-WORDS") != std::string::npos);
    checkAgainstSchema(*client);
    client.reset();
    finish(*agent);
  }
}

}  // namespace lathe::testing::e2e
