// End-to-end: one rule for .gitignore across the listing and search tools,
// in a workspace that is not a git repository (Gemini CLI and ripgrep apply
// .gitignore only inside one; Lathe applies it wherever it is, to every tool).
#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

TEST_CASE("e2e: without a git repository, list_directory, glob and grep_search leave out the same ignored files",
          "[e2e][ignore]") {
  TempDir ws;
  REQUIRE_FALSE(fs::exists(ws.path / ".git"));
  writeFile(ws.path / ".gitignore", "out/\n*.log\n");
  writeFile(ws.path / "kept.txt", "needle\n");
  writeFile(ws.path / "run.log", "needle\n");
  writeFile(ws.path / "out" / "made.txt", "needle\n");
  auto fake = startFake();
  auto lathe = startLathe(*fake);
  AcpTestClient client(*lathe);
  client.initialize();
  std::string id = client.newSession(ws.str());
  fake->push(ScriptedReply::functionCall("list_directory", R"({"dir_path":"."})"));
  fake->push(ScriptedReply::functionCall("glob", R"({"pattern":"**/*"})"));
  fake->push(ScriptedReply::functionCall("grep_search", R"({"pattern":"needle"})"));
  fake->push(ScriptedReply::text("ok"));
  REQUIRE(client.prompt(id, "look around").stopReason == "end_turn");
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 4);
  for (size_t i = 1; i <= 3; ++i) {
    auto responses = lastFunctionResponses(requests[i].body);
    REQUIRE(responses.size() == 1);
    const std::string output = responseField(responses[0].responseJson, "output");
    INFO(responses[0].name << ": " << output);
    CHECK(output.find("kept.txt") != std::string::npos);
    CHECK(output.find("run.log") == std::string::npos);
    CHECK(output.find("made.txt") == std::string::npos);
  }
  finish(*lathe);
}
