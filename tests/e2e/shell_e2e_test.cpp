// End-to-end tests of run_shell_command over ACP: what the person is asked,
// read-only lines that need no question, settings exclusions, and cancel
// killing the whole process tree.
#include <signal.h>

#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

size_t permissionCount(const AcpTestClient& client) {
  size_t n = 0;
  for (const auto& m : client.messages()) {
    if (json::getStr(*m, "method").value_or("") == "session/request_permission") ++n;
  }
  return n;
}

std::string lastFunctionOutput(const FakeGeminiServer& fake) {
  auto requests = fake.generateRequests();
  REQUIRE_FALSE(requests.empty());
  auto responses = lastFunctionResponses(requests.back().body);
  REQUIRE(responses.size() == 1);
  return responses[0].responseJson;
}

struct Shell {
  TempDir ws;
  std::unique_ptr<FakeGeminiServer> fake = startFake();
  std::unique_ptr<Subprocess> lathe;
  std::unique_ptr<AcpTestClient> client;
  std::string session;
  explicit Shell(std::vector<std::string> args = {}, AcpClientOptions options = {}) {
    lathe = startLathe(*fake, LatheOptions{std::move(args)});
    client = std::make_unique<AcpTestClient>(*lathe, options);
    client->initialize();
    session = client->newSession(ws.str());
    REQUIRE_FALSE(session.empty());
  }
  ~Shell() {
    client.reset();
    if (lathe) finish(*lathe);
  }
};

}  // namespace

TEST_CASE("e2e shell: the person sees every command, approved, it runs in the workspace", "[e2e][shell]") {
  Shell s;
  s.fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("touch made.txt && echo done | tr a-z A-Z")));
  s.fake->push(ScriptedReply::text("ok"));
  auto outcome = s.client->prompt(s.session, "make a file");
  CHECK(outcome.stopReason == "end_turn");
  REQUIRE(permissionCount(*s.client) == 1);
  Message ask;
  for (const auto& m : s.client->messages()) {
    if (json::getStr(*m, "method").value_or("") == "session/request_permission") ask = m;
  }
  const json::Value& toolCall = (*ask)["params"]["toolCall"];
  CHECK(json::getStr(toolCall, "kind").value_or("") == "execute");
  std::string shown = json::getStr(toolCall["content"][0]["content"], "text").value_or("");
  CHECK(shown.find("touch made.txt") != std::string::npos);
  CHECK(shown.find("Runs: touch, echo, tr") != std::string::npos);
  CHECK(fs::exists(s.ws.path / "made.txt"));
  CHECK(lastFunctionOutput(*s.fake).find("DONE") != std::string::npos);
  CHECK(s.fake->violations().empty());
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e shell: a line whose whole parse only reads runs without asking", "[e2e][shell]") {
  Shell s;
  writeFile(s.ws.path / "notes.txt", "alpha\nbeta\n");
  s.fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("ls && cat notes.txt | grep -c a")));
  s.fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("cat notes.txt > copy.txt")));
  s.fake->push(ScriptedReply::text("ok"));
  s.client->setPermissionKind("reject_once");
  auto outcome = s.client->prompt(s.session, "look");
  CHECK(outcome.stopReason == "end_turn");
  // The first line only reads: no question. The second writes a file: asked, rejected.
  CHECK(permissionCount(*s.client) == 1);
  CHECK_FALSE(fs::exists(s.ws.path / "copy.txt"));
  auto requests = s.fake->generateRequests();
  REQUIRE(requests.size() == 3);
  auto first = lastFunctionResponses(requests[1].body);
  REQUIRE(first.size() == 1);
  CHECK(first[0].responseJson.find("notes.txt") != std::string::npos);
}

TEST_CASE("e2e shell: settings exclude a command everywhere in the line, even in yolo", "[e2e][shell]") {
  TempDir home;
  writeFile(home.path / "settings.json", R"json({"tools": {"exclude": ["run_shell_command(rm)"]}})json");
  Shell s({"--settings", (home.path / "settings.json").string(), "--yolo"});
  writeFile(s.ws.path / "keep.txt", "x");
  s.fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("echo hi; (cd . && rm keep.txt)")));
  s.fake->push(ScriptedReply::text("ok"));
  CHECK(s.client->prompt(s.session, "clean up").stopReason == "end_turn");
  CHECK(fs::exists(s.ws.path / "keep.txt"));
  CHECK(lastFunctionOutput(*s.fake).find("tools.exclude") != std::string::npos);
}

TEST_CASE("e2e shell: cancel kills the command's whole process tree before the turn answers", "[e2e][shell]") {
  Shell s({"--yolo"});
  s.fake->push(ScriptedReply::functionCall(
      "run_shell_command", shellArgs("sleep 300 & echo $! > grandchild.pid; sleep 300 & wait")));
  int64_t id = s.client->request("session/prompt", promptParams(s.session, "wait a while"));
  const fs::path pidFile = s.ws.path / "grandchild.pid";
  // Written by the command lathe runs: polled.
  REQUIRE(pollUntil([&] { return fs::exists(pidFile) && fs::file_size(pidFile) > 0; }, kCancelGuard));
  pid_t grandchild = static_cast<pid_t>(std::stol(readFile(pidFile)));
  REQUIRE(::kill(grandchild, 0) == 0);
  s.client->cancel(s.session);
  auto response = s.client->waitResponse(id, kCancelGuard);
  REQUIRE(response);
  CHECK(stopReasonOf(response) == "cancelled");
  // Gone by the time the turn answered (allow the kernel a moment to reap a
  // process that is not ours: polled).
  CHECK(pollUntil([&] { return ::kill(grandchild, 0) != 0; }, 2s));
}

TEST_CASE("e2e shell: with commands excluded, a line that may run unnamed commands is refused, never asked",
          "[e2e][shell]") {
  TempDir home;
  writeFile(home.path / "settings.json", R"json({"tools": {"exclude": ["run_shell_command(rm)"]}})json");
  Shell s({"--settings", (home.path / "settings.json").string()});
  writeFile(s.ws.path / "keep.txt", "x");
  writeFile(s.ws.path / "list.txt", "keep.txt\n");
  // sed's e flag runs the pattern space: "rm keep.txt", which the line never names.
  s.fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("sed 's/^/rm /e' list.txt")));
  s.fake->push(ScriptedReply::text("ok"));
  s.client->setPermissionKind("allow_once");
  CHECK(s.client->prompt(s.session, "clean up").stopReason == "end_turn");
  CHECK(permissionCount(*s.client) == 0);
  CHECK(fs::exists(s.ws.path / "keep.txt"));
  std::string output = lastFunctionOutput(*s.fake);
  CHECK(output.find("may run commands it does not name") != std::string::npos);
  CHECK(output.find("sed's e command") != std::string::npos);
}

TEST_CASE("e2e shell: a call's locations are the files its line names, not the folder it runs in", "[e2e][shell]") {
  Shell s;
  writeFile(s.ws.path / "notes.txt", "alpha\n");
  writeFile(s.ws.path / "src" / "main.c", "int main;\n");
  s.fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("cat notes.txt src/main.c missing.txt")));
  s.fake->push(ScriptedReply::text("ok"));
  auto outcome = s.client->prompt(s.session, "look");
  CHECK(outcome.stopReason == "end_turn");
  auto calls = ofKind(outcome.updates, "tool_call");
  REQUIRE(calls.size() == 1);
  const json::Value* locations = member(*updateOf(calls[0]), "locations");
  REQUIRE(locations);
  std::vector<std::string> paths;
  for (const auto& location : locations->GetArray()) paths.push_back(json::getStr(location, "path").value_or(""));
  CHECK(paths == std::vector<std::string>{(s.ws.path / "notes.txt").string(), (s.ws.path / "src/main.c").string()});
}

TEST_CASE("e2e shell: processes a sealed line leaves running end with its sandbox, and the model is told",
          "[e2e][shell]") {
  Shell s;
  s.fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("sleep 60 & echo started")));
  s.fake->push(ScriptedReply::text("ok"));
  auto outcome = s.client->prompt(s.session, "start a sleeper");
  CHECK(outcome.stopReason == "end_turn");
  std::string output = lastFunctionOutput(*s.fake);
  INFO(output);
  CHECK(permissionCount(*s.client) == 0);
  CHECK(output.find("Sandbox: this line ran without") != std::string::npos);
  CHECK(output.find("ended with its sandbox when the line finished") != std::string::npos);
  CHECK(output.find("is_background") != std::string::npos);
  CHECK(output.find("have the person approve it") != std::string::npos);
}

TEST_CASE("e2e shell: a sealed line sees secret-shaped files as empty, and one naming such a file is asked about",
          "[e2e][shell]") {
  Shell s;
  writeFile(s.ws.path / ".env", "TOKEN=sk-root-secret\n");
  writeFile(s.ws.path / "service" / ".env.local", "TOKEN=sk-service-secret\n");
  writeFile(s.ws.path / "app.cfg", "TOKEN=from-config\n");
  s.client->setPermissionKind("reject_once");
  s.fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("grep -r TOKEN .")));
  s.fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs("cat .env")));
  s.fake->push(ScriptedReply::text("ok"));
  CHECK(s.client->prompt(s.session, "find the token").stopReason == "end_turn");
  auto requests = s.fake->generateRequests();
  REQUIRE(requests.size() == 3);
  const std::string searched = lastFunctionResponses(requests[1].body).at(0).responseJson;
  INFO(searched);
  CHECK(searched.find("from-config") != std::string::npos);
  CHECK(searched.find("sk-root-secret") == std::string::npos);
  CHECK(searched.find("sk-service-secret") == std::string::npos);
  // Naming the file: asked (and refused here), never sealed.
  auto asks = permissionRequests(*s.client);
  REQUIRE(asks.size() == 1);
  CHECK(json::stringify(*asks[0]).find("It reads .env: an environment file (.env)") != std::string::npos);
  CHECK(requests[2].body.find("sk-root-secret") == std::string::npos);
}
