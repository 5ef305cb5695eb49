// End-to-end tests: spawn the real lathe binary and speak ACP to it over pipes,
// with the model played by a FakeGeminiServer on 127.0.0.1. Each case gets a
// fresh temporary workspace and its own fake server. No assertion is on speed:
// the time bounds below only keep a hang from stalling the suite.
#include <signal.h>

#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

TEST_CASE("e2e: a read_file turn streams tool updates and text, and the model sees the file", "[e2e]") {
  TempDir ws;
  const std::string fileText = "The secret word is PAPRIKA-7731.\nSecond line here.\n";
  writeFile(ws.path / "docs" / "notes.txt", fileText);

  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("read_file", R"({"file_path":"docs/notes.txt"})"));
  fake->push(textStream({"The file ", "mentions ", "PAPRIKA-7731."}));

  // Debug logging must still leave stdout to the protocol.
  auto agent = startLathe(*fake, {{"--log-level", "debug"}});
  AcpTestClient client(*agent);

  Message init = client.initialize();
  REQUIRE(init);
  REQUIRE(member(*init, "result"));
  CHECK(json::getInt((*init)["result"], "protocolVersion") == 1);

  std::string sid = client.newSession(ws.str());
  REQUIRE_FALSE(sid.empty());

  PromptOutcome turn = client.prompt(sid, "What does docs/notes.txt say?");
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE_FALSE(turn.error);
  CHECK(turn.stopReason == "end_turn");

  // The sequence: tool_call, in_progress, completed, then the answer's chunks
  // (usage updates may come anywhere); the session's title follows the answer.
  std::vector<std::string> expected{"tool_call", "tool_call_update", "tool_call_update",
                                    "agent_message_chunk", "agent_message_chunk", "agent_message_chunk"};
  CHECK(kindsWithoutUsage(turn.updates) == expected);
  CHECK(waitForTitle(client, sid));
  for (const auto& u : turn.updates) CHECK(sessionOf(u) == sid);

  auto calls = ofKind(turn.updates, "tool_call");
  REQUIRE(calls.size() == 1);
  const json::Value& call = *updateOf(calls[0]);
  std::string toolCallId = json::getStr(call, "toolCallId").value_or("");
  CHECK_FALSE(toolCallId.empty());
  CHECK(json::getStr(call, "title").value_or("") == "ReadFile: docs/notes.txt");
  CHECK(json::getStr(call, "kind").value_or("") == "read");
  CHECK(json::getStr(call, "status").value_or("") == "pending");
  const json::Value* locations = member(call, "locations");
  REQUIRE(locations);
  REQUIRE(locations->IsArray());
  REQUIRE(locations->Size() >= 1);
  CHECK(json::getStr((*locations)[0], "path").value_or("") == (ws.path / "docs" / "notes.txt").string());
  const json::Value* rawInput = member(call, "rawInput");
  REQUIRE(rawInput);
  CHECK(json::getStr(*rawInput, "file_path").value_or("") == "docs/notes.txt");

  auto changes = ofKind(turn.updates, "tool_call_update");
  REQUIRE(changes.size() == 2);
  CHECK(field(changes[0], "toolCallId") == toolCallId);
  CHECK(field(changes[0], "status") == "in_progress");
  CHECK(field(changes[1], "toolCallId") == toolCallId);
  CHECK(field(changes[1], "status") == "completed");
  auto shown = contentTexts(changes[1]);
  REQUIRE(shown.size() == 1);
  CHECK_FALSE(shown[0].empty());

  // Text chunks arrive in the order the model streamed them.
  auto chunks = ofKind(turn.updates, "agent_message_chunk");
  REQUIRE(chunks.size() == 3);
  CHECK(chunkText(chunks[0]) == "The file ");
  CHECK(chunkText(chunks[1]) == "mentions ");
  CHECK(chunkText(chunks[2]) == "PAPRIKA-7731.");

  auto usage = ofKind(turn.updates, "usage_update");
  CHECK_FALSE(usage.empty());

  // The model got the file's text back in its second request.
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].model == "gemini-e2e-model");
  CHECK(requests[0].body.find("What does docs/notes.txt say?") != std::string::npos);
  auto sent = lastFunctionResponses(requests[1].body);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].name == "read_file");
  CHECK(responseField(sent[0].responseJson, "output").find(fileText) != std::string::npos);
  CHECK(fake->violations().empty());

  checkOnlyJsonRpc(client);
  finish(*agent);
}

TEST_CASE("e2e: model thoughts become agent_thought_chunk updates", "[e2e]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::stream({thoughtChunk("Pondering the question."), thoughtChunk(" Still pondering."),
                                    textChunk("Forty-two."), finishChunk()}));
  fake->push(ScriptedReply::text("Again."));

  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  REQUIRE_FALSE(sid.empty());

  PromptOutcome turn = client.prompt(sid, "What is the answer?");
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE_FALSE(turn.error);
  CHECK(turn.stopReason == "end_turn");

  // The session's title follows the answer to its first prompt.
  std::vector<std::string> expected{"agent_thought_chunk", "agent_thought_chunk", "agent_message_chunk"};
  CHECK(kindsWithoutUsage(turn.updates) == expected);
  CHECK(waitForTitle(client, sid));
  CHECK(joinedText(turn.updates, "agent_thought_chunk") == "Pondering the question. Still pondering.");
  CHECK(joinedText(turn.updates, "agent_message_chunk") == "Forty-two.");

  // A second turn works and the history stays valid.
  PromptOutcome again = client.prompt(sid, "Once more?");
  REQUIRE_FALSE(again.error);
  CHECK(again.stopReason == "end_turn");
  CHECK(joinedText(again.updates, "agent_message_chunk") == "Again.");
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[1].body.find("Forty-two.") != std::string::npos);  // the answer is history
  CHECK(fake->violations().empty());

  checkOnlyJsonRpc(client);
  finish(*agent);
}

TEST_CASE("e2e: session/cancel ends a hanging turn with cancelled, and the session goes on", "[e2e]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::hang({textChunk("Starting to answer")}));
  fake->push(ScriptedReply::text("Second turn answer."));

  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  REQUIRE_FALSE(sid.empty());

  int64_t id = client.request("session/prompt", promptParams(sid, "Write a long essay"));
  // Wait until the model stream is open and has delivered its first chunk.
  Message started = client.waitFor([&](const json::Value& m) {
    const json::Value* params = member(m, "params");
    const json::Value* update = params ? member(*params, "update") : nullptr;
    return update && json::getStr(*update, "sessionUpdate").value_or("") == "agent_message_chunk";
  });
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(started);

  client.cancel(sid);
  Message response = client.waitResponse(id, kCancelGuard);
  REQUIRE(response);
  CHECK_FALSE(member(*response, "error"));
  CHECK(stopReasonOf(response) == "cancelled");

  // The hanging stream was dropped, not left open.
  CHECK(fake->waitForAbandonedStreams(1, 10s));
  CHECK(fake->abandonedStreams() == 1);

  PromptOutcome next = client.prompt(sid, "Just say something short");
  REQUIRE_FALSE(next.error);
  CHECK(next.stopReason == "end_turn");
  CHECK(joinedText(next.updates, "agent_message_chunk") == "Second turn answer.");

  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[1].body.find("Just say something short") != std::string::npos);
  CHECK(requests[1].violations.empty());
  CHECK(fake->violations().empty());

  checkOnlyJsonRpc(client);
  finish(*agent);
}

TEST_CASE("e2e: two sessions with different workspaces run prompts at the same time", "[e2e]") {
  TempDir wsA;
  TempDir wsB;
  writeFile(wsA.path / "note.txt", "ALPHA-CONTENT-111\n");
  writeFile(wsB.path / "note.txt", "BETA-CONTENT-222\n");

  // The fallback decides from each request alone (read note.txt, then "Done."
  // once a functionResponse comes back), so concurrent sessions cannot steal
  // each other's script.
  FakeGeminiOptions options;
  options.fallback = FallbackMode::autoTool;
  options.autoReadPath = "note.txt";
  auto fake = startFake(options);

  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sidA = client.newSession(wsA.str());
  std::string sidB = client.newSession(wsB.str());
  REQUIRE_FALSE(sidA.empty());
  REQUIRE_FALSE(sidB.empty());
  CHECK(sidA != sidB);

  // Start both, then collect both.
  int64_t idA = client.request("session/prompt", promptParams(sidA, "prompt from session A"));
  int64_t idB = client.request("session/prompt", promptParams(sidB, "prompt from session B"));
  Message responseA = client.waitResponse(idA);
  Message responseB = client.waitResponse(idB);
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(responseA);
  REQUIRE(responseB);
  CHECK(stopReasonOf(responseA) == "end_turn");
  CHECK(stopReasonOf(responseB) == "end_turn");
  REQUIRE(waitForTitle(client, sidA));  // each title follows its session's answer
  REQUIRE(waitForTitle(client, sidB));

  struct Expect {
    std::string sid;
    fs::path ws;
    std::string own;
    std::string other;
  };
  for (const Expect& e : {Expect{sidA, wsA.path, "ALPHA-CONTENT-111", "BETA-CONTENT-222"},
                          Expect{sidB, wsB.path, "BETA-CONTENT-222", "ALPHA-CONTENT-111"}}) {
    INFO("session " << e.sid);
    std::vector<Message> updates;
    for (const auto& m : client.notifications()) {
      if (sessionOf(m) == e.sid) updates.push_back(m);
    }
    // The session's slash commands once it exists; the title after the first exchange.
    std::vector<std::string> expected{"available_commands_update", "tool_call", "tool_call_update",
                                      "tool_call_update", "agent_message_chunk", "session_info_update"};
    CHECK(kindsWithoutUsage(updates) == expected);
    auto calls = ofKind(updates, "tool_call");
    REQUIRE(calls.size() == 1);
    const json::Value* locations = member(*updateOf(calls[0]), "locations");
    REQUIRE(locations);
    REQUIRE(locations->IsArray());
    REQUIRE(locations->Size() >= 1);
    CHECK(json::getStr((*locations)[0], "path").value_or("") == (e.ws / "note.txt").string());
    auto changes = ofKind(updates, "tool_call_update");
    REQUIRE(changes.size() == 2);
    CHECK(field(changes[1], "status") == "completed");
    CHECK(joinedText(updates, "agent_message_chunk") == "Done.");
  }
  // Every update belongs to one of the two sessions.
  for (const auto& m : client.notifications()) CHECK((sessionOf(m) == sidA || sessionOf(m) == sidB));

  // Each session's model requests carry its own file, never the other's.
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 4);
  int sawA = 0;
  int sawB = 0;
  for (const auto& r : requests) {
    bool isA = r.body.find("prompt from session A") != std::string::npos;
    bool isB = r.body.find("prompt from session B") != std::string::npos;
    REQUIRE(isA != isB);
    auto sent = lastFunctionResponses(r.body);
    if (sent.empty()) continue;
    REQUIRE(sent.size() == 1);
    std::string output = responseField(sent[0].responseJson, "output");
    CHECK(output.find(isA ? "ALPHA-CONTENT-111" : "BETA-CONTENT-222") != std::string::npos);
    CHECK(r.body.find(isA ? "BETA-CONTENT-222" : "ALPHA-CONTENT-111") == std::string::npos);
    (isA ? sawA : sawB)++;
  }
  CHECK(sawA == 1);
  CHECK(sawB == 1);
  CHECK(fake->violations().empty());

  checkOnlyJsonRpc(client);
  finish(*agent);
}

TEST_CASE("e2e: malformed and invalid requests get JSON-RPC errors and the server keeps going", "[e2e]") {
  TempDir ws;
  auto fake = startFake();
  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);

  // Garbage: a parse error with id null, and no exit.
  REQUIRE(client.sendRaw("this is {not json"));
  Message parseError = client.waitFor([](const json::Value& m) {
    const json::Value* error = member(m, "error");
    return error && hasNullId(m);
  });
  REQUIRE(parseError);
  CHECK(errorCode(parseError) == -32700);

  // Anything but initialize first is refused.
  Message early = client.call("session/new", R"({"cwd":")" + ws.str() + R"(","mcpServers":[]})");
  REQUIRE(early);
  CHECK(errorCode(early) == -32600);
  CHECK_FALSE(member(*early, "result"));

  // The process is still up and initializes fine.
  Message init = client.initialize();
  REQUIRE(init);
  CHECK(member(*init, "result"));

  Message unknown = client.call("no/such_method", "{}");
  REQUIRE(unknown);
  CHECK(errorCode(unknown) == -32601);

  Message relative = client.call("session/new", R"({"cwd":"relative/dir","mcpServers":[]})");
  REQUIRE(relative);
  CHECK(errorCode(relative) == -32602);
  CHECK_THAT(errorMessage(relative), Catch::Contains("cwd"));

  Message missingDir =
      client.call("session/new", R"({"cwd":")" + (ws.path / "does-not-exist").string() + R"(","mcpServers":[]})");
  REQUIRE(missingDir);
  CHECK(errorCode(missingDir) == -32602);
  CHECK_THAT(errorMessage(missingDir), Catch::Contains("cwd"));

  Message noSession = client.call("session/prompt", promptParams("sess_does_not_exist", "hello"));
  REQUIRE(noSession);
  CHECK(errorCode(noSession) == -32002);
  CHECK_FALSE(member(*noSession, "result"));

  std::string sid = client.newSession(ws.str());
  REQUIRE_FALSE(sid.empty());
  Message noPrompt = client.call("session/prompt", R"({"sessionId":")" + sid + R"("})");
  REQUIRE(noPrompt);
  CHECK(errorCode(noPrompt) == -32602);
  CHECK_THAT(errorMessage(noPrompt), Catch::Contains("prompt"));

  // Another garbage line after initialize: still answered, still serving.
  // (Messages are handled in order, so the answer to the request that follows
  // comes after the parse error's.)
  REQUIRE(client.sendRaw("]]]"));
  Message after = client.call("no/such_method_either", "{}");
  REQUIRE(after);
  CHECK(errorCode(after) == -32601);
  std::vector<Message> parseErrors;
  for (const auto& m : client.messages()) {
    if (hasNullId(*m) && member(*m, "error")) parseErrors.push_back(m);
  }
  REQUIRE(parseErrors.size() == 2);
  CHECK(errorCode(parseErrors[1]) == -32700);

  // None of this reached the model, and a real prompt still works.
  CHECK(fake->generateRequests().empty());
  fake->push(ScriptedReply::text("Still here."));
  PromptOutcome turn = client.prompt(sid, "are you alive?");
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE_FALSE(turn.error);
  CHECK(turn.stopReason == "end_turn");
  CHECK(joinedText(turn.updates, "agent_message_chunk") == "Still here.");

  checkOnlyJsonRpc(client);
  finish(*agent);
}

TEST_CASE("e2e: Content-Length framing works end to end and replies use it", "[e2e]") {
  TempDir ws;
  writeFile(ws.path / "a.txt", "framed file text\n");
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("read_file", R"({"file_path":"a.txt"})"));
  fake->push(ScriptedReply::text("Framed answer."));
  auto agent = startLathe(*fake);

  // The first exchange by hand, to see the raw bytes of the reply.
  std::string init = R"({"jsonrpc":"2.0","id":100,"method":"initialize","params":{"protocolVersion":1}})";
  REQUIRE(agent->writeStdin(encodeFrame(init, Framing::content_length)));
  std::string raw;
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < deadline) {
    size_t headerEnd = raw.find("\r\n\r\n");
    if (headerEnd != std::string::npos) {
      size_t declared = 0;
      size_t at = raw.find("Content-Length:");
      if (at != std::string::npos) declared = std::stoul(raw.substr(at + 15));
      if (raw.size() >= headerEnd + 4 + declared) break;
    }
    auto some = agent->readSome(200ms);
    if (some) raw += *some;
    if (!some && agent->stdoutEnded()) break;
  }
  INFO("raw reply: " << raw);
  REQUIRE(raw.rfind("Content-Length: ", 0) == 0);
  size_t headerEnd = raw.find("\r\n\r\n");
  REQUIRE(headerEnd != std::string::npos);
  size_t declared = std::stoul(raw.substr(16, headerEnd - 16));
  REQUIRE(raw.size() == headerEnd + 4 + declared);  // exactly one frame, nothing else
  auto body = json::parse(raw.substr(headerEnd + 4));
  REQUIRE(body);
  CHECK(json::getInt(*body, "id") == 100);
  REQUIRE(member(*body, "result"));
  CHECK(json::getInt((*body)["result"], "protocolVersion") == 1);

  // The rest through the client, framed the same way.
  AcpClientOptions options;
  options.framing = Framing::content_length;
  AcpTestClient client(*agent, options);
  std::string sid = client.newSession(ws.str());
  REQUIRE_FALSE(sid.empty());
  PromptOutcome turn = client.prompt(sid, "read a.txt");
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE_FALSE(turn.error);
  CHECK(turn.stopReason == "end_turn");
  CHECK(ofKind(turn.updates, "tool_call").size() == 1);
  CHECK(joinedText(turn.updates, "agent_message_chunk") == "Framed answer.");
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[1].body.find("framed file text") != std::string::npos);

  // A malformed framed message is answered in the same framing.
  REQUIRE(client.sendRaw("{oops"));
  Message parseError = client.waitFor([](const json::Value& m) { return hasNullId(m) && member(m, "error"); });
  REQUIRE(parseError);
  CHECK(errorCode(parseError) == -32700);

  checkOnlyJsonRpc(client);
  CHECK(fake->violations().empty());
  finish(*agent);
}

TEST_CASE("e2e: reading outside the workspace fails the tool call, not the turn", "[e2e]") {
  TempDir root;
  fs::path ws = root.path / "ws";
  writeFile(ws / "inside.txt", "inside\n");
  writeFile(root.path / "outside.txt", "OUTSIDE-SECRET-999\n");

  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("read_file", R"({"file_path":"../outside.txt"})"));
  fake->push(ScriptedReply::text("I could not read it."));

  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.string());
  REQUIRE_FALSE(sid.empty());

  PromptOutcome turn = client.prompt(sid, "read ../outside.txt");
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE_FALSE(turn.error);
  CHECK(turn.stopReason == "end_turn");

  auto calls = ofKind(turn.updates, "tool_call");
  REQUIRE(calls.size() == 1);
  std::string toolCallId = field(calls[0], "toolCallId");
  auto changes = ofKind(turn.updates, "tool_call_update");
  REQUIRE_FALSE(changes.empty());
  CHECK(field(changes.back(), "toolCallId") == toolCallId);
  CHECK(field(changes.back(), "status") == "failed");
  for (const auto& change : changes) CHECK(field(change, "status") != "completed");
  CHECK(joinedText(turn.updates, "agent_message_chunk") == "I could not read it.");

  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 2);
  auto sent = lastFunctionResponses(requests[1].body);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].name == "read_file");
  CHECK_FALSE(responseField(sent[0].responseJson, "error").empty());
  CHECK(responseField(sent[0].responseJson, "output").empty());
  for (const auto& r : requests) CHECK(r.body.find("OUTSIDE-SECRET-999") == std::string::npos);
  CHECK(fake->violations().empty());

  checkOnlyJsonRpc(client);
  finish(*agent);
}

TEST_CASE("e2e: a model API error fails the prompt with the API's message and the server keeps serving", "[e2e]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::error(
      400,
      R"J({"error":{"code":400,"message":"Invalid value at 'contents' (zebra-stripes-5150)","status":"INVALID_ARGUMENT"}})J"));
  fake->push(ScriptedReply::text("Recovered."));

  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  REQUIRE_FALSE(sid.empty());

  PromptOutcome failed = client.prompt(sid, "trigger the error");
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(failed.error);
  CHECK(failed.stopReason.empty());
  REQUIRE(failed.response);
  REQUIRE(member(*failed.response, "error"));
  CHECK_THAT(*failed.error, Catch::Contains("Invalid value at 'contents' (zebra-stripes-5150)"));
  CHECK(fake->generateRequests().size() == 1);  // a 400 is not retried

  PromptOutcome next = client.prompt(sid, "try again");
  REQUIRE_FALSE(next.error);
  CHECK(next.stopReason == "end_turn");
  CHECK(joinedText(next.updates, "agent_message_chunk") == "Recovered.");
  CHECK(fake->violations().empty());

  checkOnlyJsonRpc(client);
  finish(*agent);
}

TEST_CASE("e2e: --max-turns stops a model that keeps calling tools", "[e2e]") {
  TempDir ws;
  writeFile(ws.path / "file.txt", "x\n");
  auto fake = startFake();
  for (int i = 0; i < 3; ++i) fake->push(ScriptedReply::functionCall("list_directory", R"({"dir_path":"."})"));
  fake->push(ScriptedReply::text("Only reached when the limit is ignored."));

  auto agent = startLathe(*fake, {{"--max-turns", "2"}});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  REQUIRE_FALSE(sid.empty());

  PromptOutcome turn = client.prompt(sid, "list forever");
  INFO("lathe stderr:\n" << agent->stderrText() << "\nerror: " << turn.error.value_or(""));
  REQUIRE_FALSE(turn.error);
  CHECK(turn.stopReason == "max_turn_requests");
  CHECK(fake->generateRequests().size() == 2);
  auto calls = ofKind(turn.updates, "tool_call");
  CHECK(calls.size() == 2);
  for (const auto& call : calls) CHECK(field(call, "kind") == "search");
  CHECK(fake->violations().empty());

  checkOnlyJsonRpc(client);
  finish(*agent);
}

TEST_CASE("e2e: stdin EOF in the middle of a turn ends the process cleanly", "[e2e]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::hang());

  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  REQUIRE_FALSE(sid.empty());
  int64_t id = client.request("session/prompt", promptParams(sid, "hang please"));
  REQUIRE(fake->waitForRequests(1, 30s));

  agent->closeStdin();
  auto status = agent->wait(kExitGuard);
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(status);
  CHECK(status->success());
  // If the pending prompt was answered on the way out, it says cancelled.
  if (Message response = client.waitResponse(id, 2s)) CHECK(stopReasonOf(response) == "cancelled");
  checkOnlyJsonRpc(client);
}

TEST_CASE("e2e: SIGINT or SIGTERM cancels the turn of lathe run, which exits 130", "[e2e]") {
  int signal = GENERATE(SIGINT, SIGTERM);
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::hang());
  SubprocessOptions spawn;
  spawn.argv = {LATHE_BINARY, "run", "hello"};
  spawn.cwd = ws.str();
  spawn.env = {{"GOOGLE_GEMINI_BASE_URL", fake->baseUrl()}, {"GEMINI_API_KEY", "test-key"},
               {"GEMINI_MODEL", "gemini-e2e-model"}, {"XDG_STATE_HOME", defaultStateHome()}};
  spawn.unsetEnv = {"GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT", "HTTPS_PROXY", "HTTP_PROXY",
                    "https_proxy", "http_proxy", "ALL_PROXY", "all_proxy"};
  auto run = Subprocess::spawn(spawn);
  REQUIRE(run);
  (*run)->closeStdin();
  REQUIRE(fake->waitForRequests(1, 10s));  // the turn is waiting on the model
  REQUIRE(::kill((*run)->pid(), signal) == 0);
  auto status = (*run)->wait(kExitGuard);
  INFO("stderr:\n" << (*run)->stderrText());
  REQUIRE(status);
  REQUIRE(status->exited());
  CHECK(status->exitCode == 130);
}

TEST_CASE("e2e: lathe run replays a Gemini CLI recording and rejects bad flags with exit 2", "[e2e]") {
  TempDir ws;
  writeFile(ws.path / "README.md", "# Lathe\n\nA C++20 agent server for editors.\n");

  SECTION("replay of examples/tour.jsonl") {
    std::string tour = std::string(LATHE_SOURCE_DIR) + "/examples/tour.jsonl";
    REQUIRE(fs::exists(tour));
    RunResult run = runLathe({"run", "--fake-responses", tour, "Give me a tour of this repository"}, ws.str());
    INFO("stdout:\n" << run.out << "\nstderr:\n" << run.err);
    CHECK(run.status.success());
    CHECK_THAT(run.out, Catch::Contains("Lathe"));
    CHECK(readFile(ws.path / "README.md") == "# Lathe\n\nA C++20 agent server for editors.\n");
  }
  SECTION("an unknown flag") {
    RunResult run = runLathe({"run", "--no-such-flag", "hello"}, ws.str());
    INFO("stdout:\n" << run.out << "\nstderr:\n" << run.err);
    REQUIRE(run.status.exited());
    CHECK(run.status.exitCode == 2);
    CHECK(run.out.empty());
    CHECK_FALSE(run.err.empty());
  }
  SECTION("a flag missing its value") {
    RunResult run = runLathe({"run", "hello", "--max-turns"}, ws.str());
    INFO("stdout:\n" << run.out << "\nstderr:\n" << run.err);
    REQUIRE(run.status.exited());
    CHECK(run.status.exitCode == 2);
  }
}

TEST_CASE("e2e: the session gets a title after its first exchange, valid against the ACP schema", "[e2e]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::text("Let us look at the parser."));
  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  REQUIRE_FALSE(sid.empty());
  PromptOutcome turn = client.prompt(sid, "Fix the parser crash");
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE_FALSE(turn.error);
  CHECK(ofKind(turn.updates, "session_info_update").empty());  // the answer comes first
  Message info = waitForTitle(client, sid);
  REQUIRE(info);
  CHECK(field(info, "title") == "Fake session title");
  REQUIRE(fake->titleRequests().size() == 1);
  CHECK(fake->titleRequests()[0].body.find("Fix the parser crash") != std::string::npos);
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: the picker offers the auto models, and with one chosen a classifier call routes the prompt", "[e2e]") {
  TempDir ws;
  auto fake = startFake();
  auto agent = startLathe(*fake, {.model = "gemini-2.5-pro"});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  Message opened = client.call("session/new", R"({"cwd":")" + ws.str() + R"(","mcpServers":[]})");
  const json::Value* options = member(*member(*opened, "result"), "configOptions");
  REQUIRE(options);
  std::vector<std::string> offered;
  for (const auto& choice : (*options)[0]["options"].GetArray()) offered.push_back(json::getStr(choice, "value").value_or(""));
  CHECK(offered == std::vector<std::string>{"gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite", "auto-gemini-2.5", "auto"});
  const std::string sid = json::getStr(*member(*opened, "result"), "sessionId").value_or("");
  REQUIRE(member(*client.call("session/set_config_option",
                              R"({"sessionId":")" + sid + R"(","configId":"model","value":"auto-gemini-2.5"})"),
                 "result"));
  fake->push(ScriptedReply::text(R"({"reasoning":"a greeting","model_choice":"flash"})"));
  fake->push(ScriptedReply::text("Quick answer."));
  PromptOutcome answered = client.prompt(sid, "hi");
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE_FALSE(answered.error);
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() >= 2);
  CHECK(requests[0].model == "gemini-2.5-flash-lite");
  CHECK(requests[0].action == "generateContent");
  CHECK_THAT(requests[0].body, Catch::Contains("\"responseMimeType\":\"application/json\""));
  CHECK(requests[1].model == "gemini-2.5-flash");
  CHECK(requests[1].action == "streamGenerateContent");
  CHECK(joinedText(answered.updates, "agent_message_chunk") == "Quick answer.");
  checkAgainstSchema(client);
  finish(*agent);
}
