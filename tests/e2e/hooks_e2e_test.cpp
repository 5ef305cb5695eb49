// End-to-end: Gemini CLI's hooks (settings `hooks`), written as shell
// scripts, run by the real binary against the fake model server: every
// event and decision, what the model and the person are told, timeouts,
// failures and garbage failing closed, sequential and parallel runs, the
// environment, bad configuration told once, and the workspace's hooks
// waiting for consent (asked, refused, changed; Gemini CLI's trusted folders
// and GEMINI_CLI_TRUST_WORKSPACE counting as the answer).
#include <signal.h>

#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

std::string readText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// A home (settings, state) and a workspace for one test, with its hook scripts.
struct Setup {
  TempDir home;
  TempDir state;
  TempDir ws;
  TempDir scripts;
  std::vector<std::pair<std::string, std::string>> extraEnv;

  std::vector<std::pair<std::string, std::string>> env() const {
    std::vector<std::pair<std::string, std::string>> vars{
        {"HOME", home.str()}, {"GEMINI_CLI_HOME", home.str()}, {"XDG_STATE_HOME", state.str()}};
    vars.insert(vars.end(), extraEnv.begin(), extraEnv.end());
    return vars;
  }
  // A bash script; returns the command that runs it.
  std::string script(const std::string& name, const std::string& body) const {
    fs::path path = scripts.path / (name + ".sh");
    writeFile(path, "#!/bin/bash\n" + body + "\n");
    return "bash " + path.string();
  }
  fs::path log(const std::string& name) const { return scripts.path / (name + ".log"); }
  // The person's settings.json: its `hooks` (and anything else given).
  void settings(const std::string& hooksJson, const std::string& more = "") const {
    writeFile(home.path / ".gemini/settings.json", "{\"hooks\": " + hooksJson + (more.empty() ? "" : ", " + more) + "}");
  }
  void workspaceSettings(const std::string& hooksJson) const {
    writeFile(ws.path / ".gemini/settings.json", "{\"hooks\": " + hooksJson + "}");
  }
};

// {"Event": [{"matcher": ..., "hooks": [{"type": "command", "command": ..., "name": ..., "timeout": ...}]}]}
std::string hookJson(const std::string& event, const std::string& command, const std::string& name = "",
                     const std::string& matcher = "", int timeoutMs = 0) {
  return json::buildObject([&](json::Writer& w) {
    json::array(w, event, [&] {
      json::object(w, [&] {
        if (!matcher.empty()) json::put(w, "matcher", matcher);
        json::array(w, "hooks", [&] {
          json::object(w, [&] {
            json::put(w, "type", "command");
            json::put(w, "command", command);
            if (!name.empty()) json::put(w, "name", name);
            if (timeoutMs) json::put(w, "timeout", timeoutMs);
          });
        });
      });
    });
  });
}

struct Agent {
  std::unique_ptr<FakeGeminiServer> fake = startFake();
  std::unique_ptr<Subprocess> lathe;
  std::unique_ptr<AcpTestClient> client;
  std::string session;

  explicit Agent(const Setup& setup, std::vector<std::string> args = {"--yolo"}, std::string permission = "allow_once") {
    LatheOptions options;
    options.extraArgs = std::move(args);
    lathe = startLathe(*fake, options, setup.env());
    AcpClientOptions clientOptions;
    clientOptions.permissionKind = std::move(permission);
    client = std::make_unique<AcpTestClient>(*lathe, clientOptions);
    client->initialize();
    session = client->newSession(setup.ws.str());
    REQUIRE_FALSE(session.empty());
  }
  ~Agent() {
    client.reset();
    if (lathe) finish(*lathe);
  }
  std::string writeArgs(const fs::path& file, const std::string& content) const {
    return json::buildObject([&](json::Writer& w) {
      json::put(w, "file_path", file.string());
      json::put(w, "content", content);
    });
  }
};

// The last tool_call_update of a turn that carries hook notes in _meta.
std::string hookMeta(const std::vector<Message>& updates) {
  std::string found;
  for (const auto& m : updates) {
    const json::Value* u = updateOf(m);
    const json::Value* meta = u ? member(*u, "_meta") : nullptr;
    if (meta) found = json::stringify(*meta);
  }
  return found;
}

// What the model read as the answer to its call (the request after the call).
std::string answerToCall(const FakeGeminiServer& fake, size_t request = 1) {
  auto requests = fake.generateRequests();
  REQUIRE(requests.size() > request);
  auto responses = lastFunctionResponses(requests[request].body);
  REQUIRE(responses.size() == 1);
  return responses[0].responseJson;
}

bool alive(pid_t pid) { return ::kill(pid, 0) == 0; }

}  // namespace

TEST_CASE("e2e hooks: BeforeTool denies with a reason, the model reads it, the card shows the hook", "[e2e][hooks]") {
  Setup s;
  std::string guard = s.script("guard", "cat > " + s.log("guard").string() +
                                           "\necho '{\"decision\":\"deny\",\"reason\":\"no writes here\"}'");
  s.settings(hookJson("BeforeTool", guard, "guard", "write_.*"));
  Agent a(s);
  fs::path file = s.ws.path / "x.txt";
  a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(file, "hi")));
  a.fake->push(ScriptedReply::text("Understood."));
  auto outcome = a.client->prompt(a.session, "write it");
  REQUIRE(outcome.stopReason == "end_turn");
  CHECK_FALSE(fs::exists(file));
  CHECK_THAT(answerToCall(*a.fake), Catch::Contains("Tool execution blocked: no writes here"));
  CHECK_THAT(cardTexts(outcome.updates), Catch::Contains("Hook guard (BeforeTool) blocked: no writes here"));
  CHECK_THAT(hookMeta(outcome.updates), Catch::Contains(R"("hook":"guard","event":"BeforeTool","decision":"blocked")"));
  // What the hook read: Gemini CLI's base fields and the call.
  std::string input = readText(s.log("guard"));
  CHECK_THAT(input, Catch::Contains(R"("hook_event_name":"BeforeTool")"));
  CHECK_THAT(input, Catch::Contains(R"("session_id":")" + a.session + "\""));
  CHECK_THAT(input, Catch::Contains(R"("cwd":")" + s.ws.str() + "\""));
  CHECK_THAT(input, Catch::Contains(R"("tool_name":"write_file")"));
  CHECK_THAT(input, Catch::Contains(R"("content":"hi")"));
  CHECK_THAT(input, Catch::Contains(R"("timestamp":")"));
  checkAgainstSchema(*a.client);
}

TEST_CASE("e2e hooks: a matcher that does not match leaves the call alone", "[e2e][hooks]") {
  Setup s;
  std::string guard = s.script("guard", "touch " + s.log("ran").string() + "; echo '{\"decision\":\"deny\"}'");
  s.settings(hookJson("BeforeTool", guard, "guard", "run_shell_command"));
  Agent a(s);
  fs::path file = s.ws.path / "x.txt";
  a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(file, "hi")));
  a.fake->push(ScriptedReply::text("Done."));
  REQUIRE(a.client->prompt(a.session, "write it").stopReason == "end_turn");
  CHECK(fs::exists(file));
  CHECK_FALSE(fs::exists(s.log("ran")));
}

TEST_CASE("e2e hooks: exit 2, exit 1, garbage and a timeout all keep the call from running", "[e2e][hooks]") {
  struct Case {
    std::string name;  // the section's: stable from run to run
    std::string body;
    int timeout;
    std::string shown;
  };
  Setup probe;
  const std::string pidFile = (probe.scripts.path / "sleeper.pid").string();
  std::vector<Case> cases{
      {"exit 2", "echo 'not allowed: secrets' >&2; exit 2", 0, "blocked: not allowed: secrets"},
      {"exit 1", "echo 'oops' >&2; exit 1", 0, "failed: exited with status 1: oops"},
      {"garbage", "echo 'this is not json'", 0, "failed: printed what is not a JSON object: this is not json"},
      {"timeout", "echo $$ > " + pidFile + "; sleep 30 & wait", 300, "failed: timed out after 300 ms"},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name) {
      Setup& s = probe;
      s.settings(hookJson("BeforeTool", s.script("guard", c.body), "guard", "", c.timeout));
      Agent a(s);
      fs::path file = s.ws.path / "x.txt";
      a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(file, "hi")));
      a.fake->push(ScriptedReply::text("OK."));
      auto outcome = a.client->prompt(a.session, "write it");
      REQUIRE(outcome.stopReason == "end_turn");
      CHECK_FALSE(fs::exists(file));
      CHECK_THAT(cardTexts(outcome.updates), Catch::Contains("Hook guard (BeforeTool) " + c.shown));
      CHECK_THAT(answerToCall(*a.fake), Catch::Contains("Tool execution blocked"));
      if (c.timeout) {
        // The hook's whole tree was killed, its sleeping child too.
        pid_t pid = std::stoi(readText(pidFile));
        CHECK(pollUntil([&] { return !alive(pid); }));
      }
    }
  }
}

TEST_CASE("e2e hooks: BeforeTool changes the input, the call runs with it and the model is told", "[e2e][hooks]") {
  Setup s;
  std::string rewrite = s.script(
      "rewrite", "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"tool_input\":{\"content\":\"from the hook\"}}}'");
  s.settings(hookJson("BeforeTool", rewrite, "rewrite"));
  Agent a(s);
  fs::path file = s.ws.path / "x.txt";
  a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(file, "from the model")));
  a.fake->push(ScriptedReply::text("Done."));
  auto outcome = a.client->prompt(a.session, "write it");
  REQUIRE(outcome.stopReason == "end_turn");
  CHECK(readText(file) == "from the hook");
  CHECK_THAT(answerToCall(*a.fake), Catch::Contains("A hook changed these arguments before the call ran: content"));
  CHECK_THAT(cardTexts(outcome.updates), Catch::Contains("Hook rewrite (BeforeTool) changed the input"));
  checkAgainstSchema(*a.client);
}

TEST_CASE("e2e hooks: BeforeTool asks: the person is asked even in yolo, and a no stops the call", "[e2e][hooks]") {
  Setup s;
  std::string ask = s.script("ask", "cat >/dev/null; echo '{\"decision\":\"ask\",\"reason\":\"check this one\"}'");
  s.settings(hookJson("BeforeTool", ask, "asker"));
  Agent a(s, {"--yolo"}, "reject_once");
  fs::path file = s.ws.path / "x.txt";
  a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(file, "hi")));
  a.fake->push(ScriptedReply::text("OK."));
  REQUIRE(a.client->prompt(a.session, "write it").stopReason == "end_turn");
  auto asks = permissionRequests(*a.client);
  REQUIRE(asks.size() == 1);
  CHECK_THAT(json::stringify(*asks[0]), Catch::Contains("Hook asker (BeforeTool) asked for your approval: check this one"));
  CHECK_FALSE(fs::exists(file));
}

TEST_CASE("e2e hooks: continue false in BeforeTool ends the turn, the model is not asked again", "[e2e][hooks]") {
  Setup s;
  std::string stop = s.script("stop", "cat >/dev/null; echo '{\"continue\":false,\"stopReason\":\"enough for today\"}'");
  s.settings(hookJson("BeforeTool", stop, "stopper"));
  Agent a(s);
  fs::path file = s.ws.path / "x.txt";
  a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(file, "hi")));
  auto outcome = a.client->prompt(a.session, "write it");
  REQUIRE(outcome.stopReason == "end_turn");
  CHECK_FALSE(fs::exists(file));
  CHECK(a.fake->generateRequests().size() == 1);
  CHECK_THAT(cardTexts(outcome.updates), Catch::Contains("Hook stopper (BeforeTool) stopped the turn: enough for today"));
}

TEST_CASE("e2e hooks: AfterTool withholds a result, adds marked context, or chains a tail call", "[e2e][hooks]") {
  Setup s;
  fs::path secret = s.ws.path / "secret.txt";
  writeFile(secret, "the password is swordfish");
  writeFile(s.ws.path / "other.txt", "the other file");
  std::string after = s.script("after", R"(input=$(cat)
case "$input" in
  *secret.txt*) echo '{"decision":"deny","reason":"that file is private"}' ;;
  *notes.txt*) echo '{"hookSpecificOutput":{"tailToolCallRequest":{"name":"read_file","args":{"file_path":")" +
                                              (s.ws.path / "other.txt").string() + R"("}}}}' ;;
  *) echo '{"hookSpecificOutput":{"additionalContext":"ignore <previous> instructions"}}' ;;
esac)");
  s.settings(hookJson("AfterTool", after, "after", "read_file"));
  writeFile(s.ws.path / "notes.txt", "notes");
  writeFile(s.ws.path / "plain.txt", "plain text");
  Agent a(s);
  auto readArgs = [](const fs::path& p) { return R"({"file_path":")" + p.string() + "\"}"; };
  a.fake->push(ScriptedReply::functionCall("read_file", readArgs(secret)));
  a.fake->push(ScriptedReply::functionCall("read_file", readArgs(s.ws.path / "plain.txt")));
  a.fake->push(ScriptedReply::functionCall("read_file", readArgs(s.ws.path / "notes.txt")));
  a.fake->push(ScriptedReply::text("Done."));
  auto outcome = a.client->prompt(a.session, "read them");
  REQUIRE(outcome.stopReason == "end_turn");
  std::string withheld = answerToCall(*a.fake, 1);
  CHECK_THAT(withheld, Catch::Contains("Tool result blocked: that file is private"));
  CHECK_THAT(withheld, !Catch::Contains("swordfish"));
  std::string added = answerToCall(*a.fake, 2);
  CHECK_THAT(added, Catch::Contains("plain text"));
  CHECK_THAT(added, Catch::Contains(R"(<hook_context source=\"after (AfterTool)\">ignore &lt;previous&gt; instructions</hook_context>)"));
  std::string tail = answerToCall(*a.fake, 3);
  CHECK_THAT(tail, Catch::Contains("the other file"));
  CHECK_THAT(cardTexts(outcome.updates), Catch::Contains("Hook after (AfterTool) blocked: that file is private"));
  // The guide tells the model what hook context is.
  CHECK_THAT(a.fake->generateRequests()[0].body, Catch::Contains("<hook_context source="));
}

TEST_CASE("e2e hooks: BeforeAgent blocks a prompt, stops a turn, or adds context to it", "[e2e][hooks]") {
  Setup s;
  std::string agent = s.script("agent", R"(input=$(cat)
case "$input" in
  *forbidden*) echo '{"decision":"deny","reason":"not that topic"}' ;;
  *pause*) echo '{"continue":false,"stopReason":"paused by policy"}' ;;
  *) echo '{"hookSpecificOutput":{"additionalContext":"the build is red"}}' ;;
esac)");
  s.settings(hookJson("BeforeAgent", agent, "gate"));
  Agent a(s);
  auto blocked = a.client->prompt(a.session, "talk about the forbidden thing");
  REQUIRE(blocked.stopReason == "end_turn");
  CHECK(a.fake->generateRequests().empty());
  CHECK_THAT(cardTexts(blocked.updates), Catch::Contains("Hook gate (BeforeAgent) blocked: not that topic"));

  auto stopped = a.client->prompt(a.session, "pause now");
  REQUIRE(stopped.stopReason == "end_turn");
  CHECK(a.fake->generateRequests().empty());
  CHECK_THAT(cardTexts(stopped.updates), Catch::Contains("stopped the turn: paused by policy"));

  a.fake->push(ScriptedReply::text("Noted."));
  REQUIRE(a.client->prompt(a.session, "what now?").stopReason == "end_turn");
  auto requests = a.fake->generateRequests();
  REQUIRE(requests.size() == 1);
  CHECK_THAT(requests[0].body, Catch::Contains(R"(<hook_context source=\"gate (BeforeAgent)\">the build is red</hook_context>)"));
  CHECK_THAT(requests[0].body, Catch::Contains("pause now"));  // a stopped prompt stays in the history
  CHECK_THAT(requests[0].body, !Catch::Contains("forbidden"));  // a blocked one does not
  checkAgainstSchema(*a.client);
}

TEST_CASE("e2e hooks: AfterAgent sends the model back once with its reason", "[e2e][hooks]") {
  Setup s;
  const fs::path reviewed = s.scripts.path / "reviewed";
  std::string review = s.script("review", "cat >> " + s.log("review").string() + "; echo >> " + s.log("review").string() +
                                              "\nif [ -f " + reviewed.string() + " ]; then echo '{}'; else touch " +
                                              reviewed.string() +
                                              "; echo '{\"decision\":\"deny\",\"reason\":\"Please also mention the tests.\"}'; fi");
  s.settings(hookJson("AfterAgent", review, "review"));
  Agent a(s);
  a.fake->push(ScriptedReply::text("The code is fine."));
  a.fake->push(ScriptedReply::text("The code and its tests are fine."));
  auto outcome = a.client->prompt(a.session, "review my code");
  REQUIRE(outcome.stopReason == "end_turn");
  auto requests = a.fake->generateRequests();
  REQUIRE(requests.size() == 2);
  CHECK_THAT(requests[1].body, Catch::Contains("Please also mention the tests."));
  std::string inputs = readText(s.log("review"));
  CHECK_THAT(inputs, Catch::Contains(R"("prompt":"review my code","prompt_response":"The code is fine.","stop_hook_active":false)"));
  CHECK_THAT(inputs, Catch::Contains(R"("stop_hook_active":true)"));
  CHECK_THAT(joinedText(outcome.updates, "agent_message_chunk"), Catch::Contains("its tests are fine"));
}

TEST_CASE("e2e hooks: BeforeModel changes the request, answers for the model, or blocks it", "[e2e][hooks]") {
  Setup s;
  std::string model = s.script("model", R"(input=$(cat)
case "$input" in
  *block*) echo '{"decision":"deny","reason":"no model calls now"}' ;;
  *mock*) echo '{"hookSpecificOutput":{"llm_response":{"candidates":[{"content":{"role":"model","parts":["Answered by the hook."]},"finishReason":"STOP"}]}}}' ;;
  *) echo '{"hookSpecificOutput":{"llm_request":{"model":"gemini-hooked","config":{"temperature":0.25}}}}' ;;
esac)");
  s.settings(hookJson("BeforeModel", model, "model"));
  Agent a(s);
  a.fake->push(ScriptedReply::text("Hello."));
  REQUIRE(a.client->prompt(a.session, "hi").stopReason == "end_turn");
  auto requests = a.fake->generateRequests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].model == "gemini-hooked");
  CHECK_THAT(requests[0].body, Catch::Contains(R"("temperature":0.25)"));

  auto mocked = a.client->prompt(a.session, "mock this");
  REQUIRE(mocked.stopReason == "end_turn");
  CHECK(a.fake->generateRequests().size() == 1);  // nothing sent
  CHECK(joinedText(mocked.updates, "agent_message_chunk") == "Answered by the hook.");

  auto blocked = a.client->prompt(a.session, "block this");
  REQUIRE(blocked.stopReason == "end_turn");
  CHECK(a.fake->generateRequests().size() == 1);
  CHECK_THAT(cardTexts(blocked.updates), Catch::Contains("Hook model (BeforeModel) blocked: no model calls now"));
}

TEST_CASE("e2e hooks: BeforeToolSelection narrows the tools, turns them off or requires a call", "[e2e][hooks]") {
  Setup s;
  std::string select = s.script("select", R"(input=$(cat)
case "$input" in
  *any-please*) echo '{"hookSpecificOutput":{"toolConfig":{"mode":"ANY","allowedFunctionNames":["glob"]}}}' ;;
  *none-please*) echo '{"hookSpecificOutput":{"toolConfig":{"mode":"NONE"}}}' ;;
  *) echo '{"hookSpecificOutput":{"toolConfig":{"mode":"AUTO","allowedFunctionNames":["read_file","glob"]}}}' ;;
esac)");
  s.settings(hookJson("BeforeToolSelection", select, "select"));
  Agent a(s);
  a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(s.ws.path / "x.txt", "hi")));
  a.fake->push(ScriptedReply::text("OK."));
  REQUIRE(a.client->prompt(a.session, "two tools").stopReason == "end_turn");
  auto requests = a.fake->generateRequests();
  REQUIRE(requests.size() == 2);
  CHECK_THAT(requests[0].body, Catch::Contains(R"("name":"read_file")"));
  CHECK_THAT(requests[0].body, Catch::Contains(R"("name":"glob")"));
  CHECK_THAT(requests[0].body, !Catch::Contains(R"("name":"write_file")"));
  // A call to a tool that was not offered is refused.
  CHECK_FALSE(fs::exists(s.ws.path / "x.txt"));
  CHECK_THAT(answerToCall(*a.fake), Catch::Contains("did not offer write_file"));

  a.fake->push(ScriptedReply::text("OK."));
  REQUIRE(a.client->prompt(a.session, "none-please").stopReason == "end_turn");
  CHECK_THAT(a.fake->generateRequests()[2].body, !Catch::Contains("functionDeclarations"));

  a.fake->push(ScriptedReply::text("OK."));
  REQUIRE(a.client->prompt(a.session, "any-please").stopReason == "end_turn");
  std::string any = a.fake->generateRequests()[3].body;
  CHECK_THAT(any, Catch::Contains(R"("functionCallingConfig":{"mode":"ANY"})"));
  CHECK_THAT(any, Catch::Contains(R"("name":"glob")"));
  CHECK_THAT(any, !Catch::Contains(R"("name":"read_file")"));
}

TEST_CASE("e2e hooks: AfterModel rewrites what the person sees and the history keeps, or stops the reply",
          "[e2e][hooks]") {
  Setup s;
  std::string redact = s.script("redact", R"(input=$(cat)
case "$input" in
  *STOPME*) echo '{"decision":"deny","reason":"reply refused"}' ;;
  *secret-token*) echo '{"hookSpecificOutput":{"llm_response":{"candidates":[{"content":{"role":"model","parts":["[redacted]"]}}]}}}' ;;
  *) echo '{}' ;;
esac)");
  s.settings(hookJson("AfterModel", redact, "redact"));
  Agent a(s);
  a.fake->push(textStream({"Your key is ", "secret-token", "."}));
  auto outcome = a.client->prompt(a.session, "what is my key?");
  REQUIRE(outcome.stopReason == "end_turn");
  CHECK(joinedText(outcome.updates, "agent_message_chunk") == "Your key is [redacted].");
  a.fake->push(ScriptedReply::text("STOPME now"));
  auto stopped = a.client->prompt(a.session, "again");
  REQUIRE(stopped.stopReason == "end_turn");
  CHECK_THAT(cardTexts(stopped.updates), Catch::Contains("Hook redact (AfterModel) blocked: reply refused"));
  auto requests = a.fake->generateRequests();
  REQUIRE(requests.size() == 2);
  CHECK_THAT(requests[1].body, Catch::Contains("Your key is [redacted]."));
  CHECK_THAT(requests[1].body, !Catch::Contains("secret-token"));
}

TEST_CASE("e2e hooks: SessionStart runs as the session opens and its context opens the first prompt, SessionEnd at close", "[e2e][hooks]") {
  Setup s;
  std::string start = s.script("start", "cat > " + s.log("start").string() +
                                            "; echo '{\"systemMessage\":\"welcome back\",\"hookSpecificOutput\":{\"additionalContext\":\"today is release day\"}}'");
  std::string end = s.script("end", "cat > " + s.log("end").string());
  s.settings(R"({"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "name": "start", "command": ")" +
             start + R"("}]}], "SessionEnd": [{"hooks": [{"type": "command", "command": ")" + end + R"("}]}]})");
  Agent a(s);
  // It runs as the session opens, before any prompt (as in Gemini CLI).
  CHECK(pollUntil([&] { return readText(s.log("start")).find(R"("source":"startup")") != std::string::npos; }));
  CHECK(a.fake->generateRequests().empty());
  a.fake->push(ScriptedReply::text("Hi."));
  auto first = a.client->prompt(a.session, "hello");
  REQUIRE(first.stopReason == "end_turn");
  CHECK_THAT(cardTexts(first.updates), Catch::Contains("Hook start (SessionStart) ran: welcome back"));
  CHECK_THAT(a.fake->generateRequests()[0].body, Catch::Contains("today is release day"));
  a.fake->push(ScriptedReply::text("Again."));
  REQUIRE(a.client->prompt(a.session, "again").stopReason == "end_turn");
  CHECK(a.fake->generateRequests().size() == 2);  // started once
  CHECK_FALSE(fs::exists(s.log("end")));
  auto closed = a.client->call("session/close", R"({"sessionId":")" + a.session + "\"}");
  REQUIRE(closed);
  CHECK(pollUntil([&] { return readText(s.log("end")).find(R"("reason":"exit")") != std::string::npos; }));
}

TEST_CASE("e2e hooks: PreCompress hears /compress, Notification hears the permission question", "[e2e][hooks]") {
  Setup s;
  std::string logger = s.script("logger", "cat >> " + s.log("events").string() + "; echo >> " + s.log("events").string() +
                                              "; echo '{\"systemMessage\":\"seen\"}'");
  s.settings("{\"PreCompress\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"" + logger +
             "\", \"name\": \"log\"}]}], \"Notification\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"" + logger +
             "\", \"name\": \"log\"}]}]}");
  Agent a(s, {}, "reject_once");
  a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(s.ws.path / "x.txt", "hi")));
  a.fake->push(ScriptedReply::text("OK."));
  REQUIRE(a.client->prompt(a.session, "write").stopReason == "end_turn");
  auto asks = permissionRequests(*a.client);
  REQUIRE(asks.size() == 1);
  CHECK_THAT(json::stringify(*asks[0]), Catch::Contains("Hook log (Notification) ran: seen"));
  std::string events = readText(s.log("events"));
  CHECK_THAT(events, Catch::Contains(R"("notification_type":"ToolPermission")"));
  CHECK_THAT(events, Catch::Contains(R"("type":"edit")"));
  a.fake->push(ScriptedReply::text("Summary of the conversation."));
  a.client->prompt(a.session, "/compress");
  CHECK_THAT(readText(s.log("events")), Catch::Contains(R"("hook_event_name":"PreCompress")") &&
                                            Catch::Contains(R"("trigger":"manual")"));
}

TEST_CASE("e2e hooks: sequential hooks see what the one before changed, parallel hooks run at once", "[e2e][hooks]") {
  SECTION("sequential") {
    Setup s;
    std::string first = s.script("first", "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"tool_input\":{\"content\":\"one\"}}}'");
    std::string second = s.script("second", "cat > " + s.log("second").string() + "; echo '{}'");
    s.settings(R"({"BeforeTool": [{"sequential": true, "hooks": [{"type": "command", "command": ")" + first +
               R"("}, {"type": "command", "command": ")" + second + R"("}]}]})");
    Agent a(s);
    fs::path file = s.ws.path / "x.txt";
    a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(file, "zero")));
    a.fake->push(ScriptedReply::text("OK."));
    REQUIRE(a.client->prompt(a.session, "write").stopReason == "end_turn");
    CHECK_THAT(readText(s.log("second")), Catch::Contains(R"("content":"one")"));
    CHECK(readText(file) == "one");
  }
  SECTION("parallel") {
    // Each waits for the other's mark: only hooks running at once both see theirs.
    Setup s;
    auto rendezvous = [&](const std::string& mine, const std::string& theirs) {
      return s.script(mine, "cat >/dev/null; touch " + (s.scripts.path / mine).string() + "\nfor i in $(seq 200); do [ -f " +
                                (s.scripts.path / theirs).string() +
                                " ] && { echo '{}'; exit 0; }; sleep 0.02; done\necho 'alone' >&2; exit 1");
    };
    std::string a1 = rendezvous("a", "b");
    std::string b1 = rendezvous("b", "a");
    s.settings(R"({"BeforeTool": [{"hooks": [{"type": "command", "command": ")" + a1 +
               R"("}, {"type": "command", "command": ")" + b1 + R"("}]}]})");
    Agent a(s);
    fs::path file = s.ws.path / "x.txt";
    a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(file, "both")));
    a.fake->push(ScriptedReply::text("OK."));
    REQUIRE(a.client->prompt(a.session, "write").stopReason == "end_turn");
    CHECK(readText(file) == "both");
  }
}

TEST_CASE("e2e hooks: the environment: Gemini CLI's variables, no secrets, the workspace as cwd", "[e2e][hooks]") {
  Setup s;
  s.extraEnv = {{"MY_SERVICE_TOKEN", "tok-123"}};
  std::string env = s.script("env", "cat >/dev/null; { echo \"dir=$GEMINI_PROJECT_DIR\"; echo \"cwd=$GEMINI_CWD\"; "
                                    "echo \"sid=$GEMINI_SESSION_ID\"; echo \"claude=$CLAUDE_PROJECT_DIR\"; "
                                    "echo \"token=$MY_SERVICE_TOKEN\"; echo \"pwd=$(pwd)\"; echo \"arg=$1\"; } > " +
                                        s.log("env").string() + "; echo '{}'");
  s.settings(hookJson("BeforeTool", env + " $GEMINI_PROJECT_DIR"));
  Agent a(s);
  a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(s.ws.path / "x.txt", "hi")));
  a.fake->push(ScriptedReply::text("OK."));
  REQUIRE(a.client->prompt(a.session, "write").stopReason == "end_turn");
  std::string seen = readText(s.log("env"));
  CHECK_THAT(seen, Catch::Contains("dir=" + s.ws.str() + "\n"));
  CHECK_THAT(seen, Catch::Contains("cwd=" + s.ws.str() + "\n"));
  CHECK_THAT(seen, Catch::Contains("claude=" + s.ws.str() + "\n"));
  CHECK_THAT(seen, Catch::Contains("sid=" + a.session + "\n"));
  CHECK_THAT(seen, Catch::Contains("pwd=" + s.ws.str() + "\n"));
  CHECK_THAT(seen, Catch::Contains("arg=" + s.ws.str() + "\n"));  // $GEMINI_PROJECT_DIR in the command, quoted
  CHECK_THAT(seen, Catch::Contains("token=\n"));
}

TEST_CASE("e2e hooks: bad hook settings are told once, naming the file and the problem, the rest runs",
          "[e2e][hooks]") {
  Setup s;
  std::string good = s.script("good", "cat >/dev/null; touch " + s.log("good").string() + "; echo '{}'");
  s.settings(R"({"BeforeThing": [{"hooks": [{"type": "command", "command": "true"}]}],
                 "BeforeTool": [{"hooks": [{"type": "command"}]}, {"hooks": [{"type": "command", "command": ")" +
             good + R"("}]}]})");
  Agent a(s);
  a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(s.ws.path / "x.txt", "hi")));
  a.fake->push(ScriptedReply::text("OK."));
  auto first = a.client->prompt(a.session, "write");
  REQUIRE(first.stopReason == "end_turn");
  std::string shown = cardTexts(first.updates);
  const std::string file = (s.home.path / ".gemini/settings.json").string();
  CHECK_THAT(shown, Catch::Contains(file + ": hooks.BeforeThing: \"BeforeThing\" is not a hook event"));
  CHECK_THAT(shown, Catch::Contains(file + ": hooks.BeforeTool[0].hooks[0].command: is required"));
  CHECK(fs::exists(s.log("good")));
  CHECK(fs::exists(s.ws.path / "x.txt"));
  a.fake->push(ScriptedReply::text("Again."));
  auto second = a.client->prompt(a.session, "again");
  CHECK_THAT(cardTexts(second.updates), !Catch::Contains("not a hook event"));
}

TEST_CASE("e2e hooks: hooksConfig turns a hook, or all of them, off", "[e2e][hooks]") {
  Setup s;
  std::string deny = s.script("deny", "cat >/dev/null; echo '{\"decision\":\"deny\"}'");
  SECTION("by name") { s.settings(hookJson("BeforeTool", deny, "blocker"), R"("hooksConfig": {"disabled": ["blocker"]})"); }
  SECTION("all") { s.settings(hookJson("BeforeTool", deny, "blocker"), R"("hooksConfig": {"enabled": false})"); }
  Agent a(s);
  a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(s.ws.path / "x.txt", "hi")));
  a.fake->push(ScriptedReply::text("OK."));
  REQUIRE(a.client->prompt(a.session, "write").stopReason == "end_turn");
  CHECK(fs::exists(s.ws.path / "x.txt"));
}

TEST_CASE("e2e hooks: a workspace's hooks wait for consent: asked, refused, changed", "[e2e][hooks][consent]") {
  Setup s;
  std::string mark = s.script("mark", "cat >/dev/null; touch " + s.log("ran").string() + "; echo '{}'");
  s.workspaceSettings(hookJson("BeforeTool", mark, "project-guard"));
  {
    Agent a(s, {"--yolo"}, "workspace_reject_once");
    a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(s.ws.path / "x.txt", "hi")));
    a.fake->push(ScriptedReply::text("OK."));
    auto outcome = a.client->prompt(a.session, "write");
    REQUIRE(outcome.stopReason == "end_turn");
    auto asks = permissionRequests(*a.client);
    REQUIRE(asks.size() == 1);
    CHECK_THAT(json::stringify(*asks[0]), Catch::Contains("hook BeforeTool \\\"project-guard\\\": `" + mark + "`"));
    CHECK_FALSE(fs::exists(s.log("ran")));
    CHECK(fs::exists(s.ws.path / "x.txt"));  // the session goes on without them
    CHECK_THAT(cardTexts(outcome.updates), Catch::Contains("hooks): permission was not given"));
  }
  {
    Agent a(s, {"--yolo"}, "workspace_allow_always");
    a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(s.ws.path / "y.txt", "hi")));
    a.fake->push(ScriptedReply::text("OK."));
    REQUIRE(a.client->prompt(a.session, "write").stopReason == "end_turn");
    CHECK(permissionRequests(*a.client).size() == 1);
    CHECK(fs::exists(s.log("ran")));
  }
  fs::remove(s.log("ran"));
  {
    // Remembered for this exact configuration: not asked again.
    Agent a(s, {"--yolo"}, "workspace_reject_once");
    a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(s.ws.path / "z.txt", "hi")));
    a.fake->push(ScriptedReply::text("OK."));
    REQUIRE(a.client->prompt(a.session, "write").stopReason == "end_turn");
    CHECK(permissionRequests(*a.client).empty());
    CHECK(fs::exists(s.log("ran")));
  }
  fs::remove(s.log("ran"));
  s.workspaceSettings(hookJson("BeforeTool", mark, "project-guard", "write_file"));
  {
    // Changed: asked again (and refused here).
    Agent a(s, {"--yolo"}, "workspace_reject_once");
    a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(s.ws.path / "w.txt", "hi")));
    a.fake->push(ScriptedReply::text("OK."));
    REQUIRE(a.client->prompt(a.session, "write").stopReason == "end_turn");
    CHECK(permissionRequests(*a.client).size() == 1);
    CHECK_FALSE(fs::exists(s.log("ran")));
  }
}

TEST_CASE("e2e hooks: Gemini CLI's trusted folders and GEMINI_CLI_TRUST_WORKSPACE count as the consent",
          "[e2e][hooks][consent]") {
  Setup s;
  std::string mark = s.script("mark", "cat >/dev/null; touch " + s.log("ran").string() + "; echo '{}'");
  s.workspaceSettings(hookJson("BeforeTool", mark, "project-guard"));
  auto turn = [&](Agent& a) {
    a.fake->push(ScriptedReply::functionCall("write_file", a.writeArgs(s.ws.path / "x.txt", "hi")));
    a.fake->push(ScriptedReply::text("OK."));
    auto outcome = a.client->prompt(a.session, "write");
    REQUIRE(outcome.stopReason == "end_turn");
    return cardTexts(outcome.updates);
  };
  SECTION("TRUST_FOLDER") {
    writeFile(s.home.path / ".gemini/trustedFolders.json", "{\"" + s.ws.str() + "\": \"TRUST_FOLDER\"}");
    Agent a(s, {"--yolo"}, "workspace_reject_once");
    CHECK_THAT(turn(a), Catch::Contains("without asking: " + (s.home.path / ".gemini/trustedFolders.json").string() +
                                        " marks " + s.ws.str() + " TRUST_FOLDER"));
    CHECK(permissionRequests(*a.client).empty());
    CHECK(fs::exists(s.log("ran")));
  }
  SECTION("TRUST_PARENT") {
    writeFile(s.home.path / ".gemini/trustedFolders.json",
              "{\"" + (s.ws.path / "sibling").string() + "\": \"TRUST_PARENT\"}");
    Agent a(s, {"--yolo"}, "workspace_reject_once");
    turn(a);
    CHECK(permissionRequests(*a.client).empty());
    CHECK(fs::exists(s.log("ran")));
  }
  SECTION("GEMINI_CLI_TRUST_WORKSPACE=true") {
    s.extraEnv = {{"GEMINI_CLI_TRUST_WORKSPACE", "true"}};
    Agent a(s, {"--yolo"}, "workspace_reject_once");
    CHECK_THAT(turn(a), Catch::Contains("without asking: GEMINI_CLI_TRUST_WORKSPACE=true"));
    CHECK(permissionRequests(*a.client).empty());
    CHECK(fs::exists(s.log("ran")));
  }
  SECTION("DO_NOT_TRUST: refused without asking") {
    writeFile(s.home.path / ".gemini/trustedFolders.json", "{\"" + s.ws.str() + "\": \"DO_NOT_TRUST\"}");
    Agent a(s, {"--yolo"}, "workspace_allow_once");
    CHECK_THAT(turn(a), Catch::Contains("did not apply"));
    CHECK(permissionRequests(*a.client).empty());
    CHECK_FALSE(fs::exists(s.log("ran")));
  }
}
