// End-to-end tests of edits and permissions over ACP: approve, reject, allow
// always, modes, edits through the client's fs/* (unsaved buffers, new files),
// each conversation validated against the ACP v1 schema.
#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

std::string replaceArgs(const fs::path& file, const std::string& from, const std::string& to) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "file_path", file.string());
    json::put(w, "instruction", "Change the greeting");
    json::put(w, "old_string", from);
    json::put(w, "new_string", to);
    w.EndObject();
  });
}

std::string writeArgs(const fs::path& file, const std::string& content) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "file_path", file.string());
    json::put(w, "content", content);
    w.EndObject();
  });
}

// The permission requests the agent sent, in order.

std::string lastResponseOf(const FakeGeminiServer& fake, size_t request) {
  auto requests = fake.generateRequests();
  REQUIRE(requests.size() > request);
  auto responses = lastFunctionResponses(requests[request].body);
  REQUIRE(responses.size() == 1);
  return responses[0].responseJson;
}

struct Setup {
  TempDir ws;
  fs::path file;
  std::unique_ptr<FakeGeminiServer> fake = startFake();
  std::unique_ptr<Subprocess> lathe;
  std::unique_ptr<AcpTestClient> client;
  std::string session;

  explicit Setup(AcpClientOptions options = {}, LatheOptions latheOptions = {}) {
    file = ws.path / "hello.txt";
    writeFile(file, "hello world\n");
    lathe = startLathe(*fake, latheOptions);
    client = std::make_unique<AcpTestClient>(*lathe, options);
    client->initialize();
    session = client->newSession(ws.str());
    REQUIRE_FALSE(session.empty());
  }
  ~Setup() {
    client.reset();
    if (lathe) finish(*lathe);
  }
};

}  // namespace

TEST_CASE("e2e: an approved edit asks with the diff and lands through fs/write_text_file", "[e2e][permission]") {
  AcpClientOptions options;
  options.writesToDisk = false;  // the editor keeps the edit in its buffer
  Setup s(options);
  s.fake->push(ScriptedReply::functionCall("replace", replaceArgs(s.file, "hello world", "hello lathe")));
  s.fake->push(ScriptedReply::text("Changed it."));
  auto outcome = s.client->prompt(s.session, "change the greeting");
  CHECK(outcome.stopReason == "end_turn");

  auto asks = permissionRequests(*s.client);
  REQUIRE(asks.size() == 1);
  const json::Value& params = (*asks[0])["params"];
  const json::Value& toolCall = params["toolCall"];
  CHECK(json::getStr(toolCall, "status").value_or("") == "pending");
  CHECK(json::getStr(toolCall, "kind").value_or("") == "edit");
  const json::Value& diff = toolCall["content"][0];
  CHECK(json::getStr(diff, "type").value_or("") == "diff");
  CHECK(json::getStr(diff, "path").value_or("") == s.file.string());
  CHECK(json::getStr(diff, "oldText").value_or("") == "hello world\n");
  CHECK(json::getStr(diff, "newText").value_or("") == "hello lathe\n");
  CHECK(json::getStr(toolCall["locations"][0], "path").value_or("") == s.file.string());

  auto writes = s.client->writes();
  REQUIRE(writes.size() == 1);
  CHECK(writes[0].path == s.file.string());
  CHECK(writes[0].content == "hello lathe\n");
  CHECK(readFile(s.file) == "hello world\n");  // never written behind the editor's back
  auto completed = ofKind(outcome.updates, "tool_call_update");
  REQUIRE_FALSE(completed.empty());
  CHECK(field(completed.back(), "status") == "completed");
  CHECK(responseField(lastResponseOf(*s.fake, 1), "output").find("hello.txt") != std::string::npos);
  CHECK(s.fake->violations().empty());
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e: a rejected edit changes nothing and the model is told", "[e2e][permission]") {
  AcpClientOptions options;
  options.permissionKind = "reject_once";
  Setup s(options);
  s.fake->push(ScriptedReply::functionCall("replace", replaceArgs(s.file, "hello world", "bye")));
  s.fake->push(ScriptedReply::text("Understood, leaving it."));
  auto outcome = s.client->prompt(s.session, "change the greeting");
  CHECK(outcome.stopReason == "end_turn");
  CHECK(permissionRequests(*s.client).size() == 1);
  CHECK(s.client->writes().empty());
  CHECK(readFile(s.file) == "hello world\n");
  std::string response = lastResponseOf(*s.fake, 1);
  CHECK(responseField(response, "error").find("rejected") != std::string::npos);
  auto updates = ofKind(outcome.updates, "tool_call_update");
  REQUIRE_FALSE(updates.empty());
  CHECK(field(updates.back(), "status") == "failed");
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e: allow always for a file is not asked again for that file", "[e2e][permission]") {
  AcpClientOptions options;
  options.permissionKind = "allow_always";
  Setup s(options);
  fs::path other = s.ws.path / "other.txt";
  writeFile(other, "other\n");
  s.fake->push(ScriptedReply::functionCall("replace", replaceArgs(s.file, "hello world", "hello one")));
  s.fake->push(ScriptedReply::text("one"));
  s.fake->push(ScriptedReply::functionCall("replace", replaceArgs(s.file, "hello one", "hello two")));
  s.fake->push(ScriptedReply::text("two"));
  s.fake->push(ScriptedReply::functionCall("write_file", writeArgs(other, "changed\n")));
  s.fake->push(ScriptedReply::text("three"));
  CHECK(s.client->prompt(s.session, "first").stopReason == "end_turn");
  CHECK(s.client->prompt(s.session, "second").stopReason == "end_turn");
  CHECK(permissionRequests(*s.client).size() == 1);
  CHECK(readFile(s.file) == "hello two\n");
  CHECK(s.client->prompt(s.session, "third").stopReason == "end_turn");
  CHECK(permissionRequests(*s.client).size() == 2);  // another file: asked again
  CHECK(readFile(other) == "changed\n");
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e: allowing all edits is not asked again for any file", "[e2e][permission]") {
  AcpClientOptions options;
  options.permissionKind = "allow_always_edits";
  Setup s(options);
  fs::path other = s.ws.path / "sub" / "other.txt";
  s.fake->push(ScriptedReply::functionCall("replace", replaceArgs(s.file, "hello world", "hello one")));
  s.fake->push(ScriptedReply::text("one"));
  s.fake->push(ScriptedReply::functionCall("write_file", writeArgs(other, "new\n")));
  s.fake->push(ScriptedReply::text("two"));
  CHECK(s.client->prompt(s.session, "first").stopReason == "end_turn");
  auto asks = permissionRequests(*s.client);
  REQUIRE(asks.size() == 1);
  CHECK(json::stringify(*asks[0]).find(R"("name":"Allow all edits for this session")") !=
        std::string::npos);
  CHECK(s.client->prompt(s.session, "second").stopReason == "end_turn");
  CHECK(permissionRequests(*s.client).size() == 1);  // another file, a new one: not asked
  CHECK(readFile(s.file) == "hello one\n");
  CHECK(readFile(other) == "new\n");
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e: edits apply to the editor's unsaved buffer, not the disk", "[e2e][permission]") {
  AcpClientOptions options;
  options.writesToDisk = false;
  Setup s(options);
  s.client->setBuffer(s.file.string(), "hello unsaved world\n");
  s.fake->push(ScriptedReply::functionCall("replace", replaceArgs(s.file, "unsaved", "edited")));
  s.fake->push(ScriptedReply::text("done"));
  CHECK(s.client->prompt(s.session, "edit").stopReason == "end_turn");
  REQUIRE(s.client->buffer(s.file.string()));
  CHECK(*s.client->buffer(s.file.string()) == "hello edited world\n");
  CHECK(readFile(s.file) == "hello world\n");
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e: a new file is created even when the client cannot read it", "[e2e][permission]") {
  Setup s;
  s.client->setHandler("fs/read_text_file", [](const std::string&, const json::Value&) {
    return HandlerReply::error(-32002, "Resource not found");
  });
  fs::path created = s.ws.path / "src" / "new.txt";
  s.fake->push(ScriptedReply::functionCall("write_file", writeArgs(created, "fresh\n")));
  s.fake->push(ScriptedReply::text("created"));
  auto outcome = s.client->prompt(s.session, "create it");
  CHECK(outcome.stopReason == "end_turn");
  auto asks = permissionRequests(*s.client);
  REQUIRE(asks.size() == 1);
  CHECK((*asks[0])["params"]["toolCall"]["content"][0]["oldText"].IsNull());
  REQUIRE(s.client->writes().size() == 1);
  CHECK(readFile(created) == "fresh\n");
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e: modes: session/new lists them, set_mode switches, yolo skips asking, plan refuses", "[e2e][permission]") {
  Setup s;
  auto created = s.client->call("session/new", "{\"cwd\":\"" + s.ws.str() + "\",\"mcpServers\":[]}");
  REQUIRE(created);
  const json::Value& modes = (*created)["result"]["modes"];
  CHECK(json::getStr(modes, "currentModeId").value_or("") == "default");
  CHECK(modes["availableModes"].Size() == 4);

  auto bad = s.client->call("session/set_mode", "{\"sessionId\":\"" + s.session + "\",\"modeId\":\"turbo\"}");
  CHECK(errorCode(bad) == -32602);
  auto ok = s.client->call("session/set_mode", "{\"sessionId\":\"" + s.session + "\",\"modeId\":\"yolo\"}");
  REQUIRE(ok);
  CHECK(member(*ok, "result"));
  auto modeUpdates = ofKind(s.client->notifications(), "current_mode_update");
  REQUIRE(modeUpdates.size() == 1);
  CHECK(field(modeUpdates[0], "currentModeId") == "yolo");

  s.fake->push(ScriptedReply::functionCall("replace", replaceArgs(s.file, "hello world", "hello yolo")));
  s.fake->push(ScriptedReply::text("done"));
  CHECK(s.client->prompt(s.session, "go").stopReason == "end_turn");
  CHECK(permissionRequests(*s.client).empty());
  CHECK(readFile(s.file) == "hello yolo\n");

  REQUIRE(s.client->call("session/set_mode", "{\"sessionId\":\"" + s.session + "\",\"modeId\":\"plan\"}"));
  s.fake->push(ScriptedReply::functionCall("replace", replaceArgs(s.file, "hello yolo", "hello plan")));
  s.fake->push(ScriptedReply::text("ok"));
  CHECK(s.client->prompt(s.session, "go").stopReason == "end_turn");
  CHECK(readFile(s.file) == "hello yolo\n");
  CHECK(responseField(lastResponseOf(*s.fake, 3), "error").find("plan mode") != std::string::npos);
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e: cancel while a permission request is open answers the turn cancelled", "[e2e][permission]") {
  Setup s;
  s.client->setHandler("session/request_permission",
                       [](const std::string&, const json::Value&) { return HandlerReply::later(); });
  s.fake->push(ScriptedReply::functionCall("replace", replaceArgs(s.file, "hello world", "never")));
  int64_t id = s.client->request("session/prompt", promptParams(s.session, "edit"));
  REQUIRE(s.client->waitFor([](const json::Value& m) {
    return json::getStr(m, "method").value_or("") == "session/request_permission";
  }));
  s.client->cancel(s.session);
  auto response = s.client->waitResponse(id, kCancelGuard);
  REQUIRE(response);
  CHECK(stopReasonOf(response) == "cancelled");
  CHECK(readFile(s.file) == "hello world\n");
}

TEST_CASE("e2e: reading a file git ignores, or one shaped like secrets, asks first naming it and why",
          "[e2e][permission]") {
  Setup s;
  writeFile(s.ws.path / ".gitignore", "local/\n");
  writeFile(s.ws.path / "local" / "notes.txt", "ignored notes\n");
  writeFile(s.ws.path / ".env", "API_TOKEN=sk-secret-123\n");
  s.client->setPermissionKind("reject_once");
  s.fake->push(ScriptedReply::functionCall("read_file", R"({"file_path":".env"})"));
  s.fake->push(ScriptedReply::functionCall("read_file", R"({"file_path":"local/notes.txt"})"));
  s.fake->push(ScriptedReply::functionCall("read_file", R"({"file_path":"hello.txt"})"));
  s.fake->push(ScriptedReply::text("ok"));
  auto outcome = s.client->prompt(s.session, "read them");
  CHECK(outcome.stopReason == "end_turn");
  auto asks = permissionRequests(*s.client);
  REQUIRE(asks.size() == 2);  // hello.txt is an ordinary file: not asked
  std::string first = json::stringify(*asks[0]);
  CHECK(first.find((s.ws.path / ".env").string()) != std::string::npos);
  CHECK(first.find("an environment file (.env)") != std::string::npos);
  CHECK(json::stringify(*asks[1]).find("ignored by .gitignore") != std::string::npos);
  // Refused: nothing of the files reached the model.
  for (const auto& request : s.fake->generateRequests()) {
    CHECK(request.body.find("sk-secret-123") == std::string::npos);
    CHECK(request.body.find("ignored notes") == std::string::npos);
  }
  CHECK(lastResponseOf(*s.fake, 3).find("hello world") != std::string::npos);

  // Allowed always: read, and not asked again for that file.
  s.client->setPermissionKind("allow_always");
  s.fake->push(ScriptedReply::functionCall("read_file", R"({"file_path":".env"})"));
  s.fake->push(ScriptedReply::functionCall("read_file", R"({"file_path":".env"})"));
  s.fake->push(ScriptedReply::text("ok"));
  CHECK(s.client->prompt(s.session, "read it now").stopReason == "end_turn");
  CHECK(permissionRequests(*s.client).size() == 3);
  CHECK(lastResponseOf(*s.fake, 6).find("sk-secret-123") != std::string::npos);
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e: allowing read_file in settings, or autoEdit, does not cover secret files", "[e2e][permission]") {
  TempDir home;
  writeFile(home.path / "settings.json", R"json({"tools": {"allowed": ["read_file"]}})json");
  Setup s({}, LatheOptions{{"--settings", (home.path / "settings.json").string(), "--approval-mode", "autoEdit"}});
  writeFile(s.ws.path / "deploy.pem", "-----BEGIN PRIVATE KEY-----\n");
  s.client->setPermissionKind("reject_once");
  s.fake->push(ScriptedReply::functionCall("read_file", R"({"file_path":"deploy.pem"})"));
  s.fake->push(ScriptedReply::text("ok"));
  CHECK(s.client->prompt(s.session, "read the key").stopReason == "end_turn");
  CHECK(permissionRequests(*s.client).size() == 1);
  CHECK(lastResponseOf(*s.fake, 1).find("BEGIN PRIVATE KEY") == std::string::npos);
}

TEST_CASE("e2e: replace lands an edit that differs only in whitespace inside lines, and refuses placeholders",
          "[e2e][permission]") {
  Setup s({}, LatheOptions{{"--yolo"}});
  writeFile(s.file, "int main(void) {\n    call( a,  b );\n    return 0;\n}\n");
  s.fake->push(ScriptedReply::functionCall("replace", replaceArgs(s.file, "call(a, b);", "call(a, b, c);")));
  s.fake->push(ScriptedReply::functionCall(
      "replace", replaceArgs(s.file, "    return 0;", "    // rest unchanged\n    return 1;")));
  s.fake->push(ScriptedReply::functionCall("replace", replaceArgs(s.file, "return zero;", "return 2;")));
  s.fake->push(ScriptedReply::text("ok"));
  CHECK(s.client->prompt(s.session, "edit").stopReason == "end_turn");
  auto writes = s.client->writes();
  REQUIRE(writes.size() == 1);
  CHECK(writes[0].content == "int main(void) {\n    call(a, b, c);\n    return 0;\n}\n");
  CHECK(lastResponseOf(*s.fake, 1).find("inside lines too") != std::string::npos);
  CHECK(lastResponseOf(*s.fake, 2).find("omission placeholder") != std::string::npos);
  const std::string missed = lastResponseOf(*s.fake, 3);
  CHECK(missed.find("closest text in the file starts at line 3") != std::string::npos);
  CHECK(missed.find("return 0;") != std::string::npos);
}
