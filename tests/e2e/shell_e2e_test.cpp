// End-to-end tests of run_shell_command over ACP: what the person is asked,
// read-only lines that need no question, settings exclusions, and cancel
// killing the whole process tree.
#include <signal.h>

#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

std::string shellArgs(const std::string& command) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "command", command);
    w.EndObject();
  });
}

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
  auto deadline = std::chrono::steady_clock::now() + kCancelGuard;
  while (std::chrono::steady_clock::now() < deadline && (!fs::exists(pidFile) || fs::file_size(pidFile) == 0)) {
    std::this_thread::sleep_for(20ms);
  }
  REQUIRE(fs::exists(pidFile));
  pid_t grandchild = static_cast<pid_t>(std::stol(readFile(pidFile)));
  REQUIRE(::kill(grandchild, 0) == 0);
  s.client->cancel(s.session);
  auto response = s.client->waitResponse(id, kCancelGuard);
  REQUIRE(response);
  CHECK(stopReasonOf(response) == "cancelled");
  // Gone by the time the turn answered (allow the kernel a moment to reap).
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    gone = ::kill(grandchild, 0) != 0;
    if (!gone) std::this_thread::sleep_for(20ms);
  }
  CHECK(gone);
}
