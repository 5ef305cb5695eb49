// End-to-end tests of memory with the real binary: context files reach the
// model's system prompt in order with their paths, a subfolder's file joins a
// tool result just in time, and save_memory asks before it writes the global
// GEMINI.md (GEMINI_CLI_HOME and HOME point at temporary folders: the real
// ~/.gemini is never touched).
#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

// The systemInstruction text of a generate request body.
std::string systemTextOf(const std::string& body) {
  auto doc = json::parse(body);
  if (!doc || !doc->IsObject()) return "";
  const json::Value* system = member(*doc, "systemInstruction");
  const json::Value* parts = system ? member(*system, "parts") : nullptr;
  std::string text;
  if (parts && parts->IsArray()) {
    for (const auto& part : parts->GetArray()) text += json::getStr(part, "text").value_or("");
  }
  return text;
}

bool declares(const std::string& body, const std::string& name) {
  return body.find("\"name\":\"" + name + "\"") != std::string::npos;
}

std::string block(const fs::path& path, const std::string& content) {
  return "--- Context from: " + path.string() + " ---\n" + content + "\n--- End of Context from: " + path.string() + " ---";
}

// A home with a global GEMINI.md, and a repository whose workspace is app/.
struct Setup {
  TempDir dir;
  fs::path home;
  fs::path ws;
  std::unique_ptr<FakeGeminiServer> fake = startFake();
  std::unique_ptr<Subprocess> lathe;
  std::unique_ptr<AcpTestClient> client;
  std::string session;

  explicit Setup(AcpClientOptions options = {}) {
    home = dir.path / "home";
    ws = dir.path / "repo/app";
    writeFile(home / ".gemini/GEMINI.md", "Global: answer briefly.");
    writeFile(home / ".gemini/settings.json", R"({"context": {"fileName": ["GEMINI.md", "AGENTS.md"]}})");
    fs::create_directories(dir.path / "repo/.git");
    writeFile(dir.path / "repo/GEMINI.md", "Repo: use C++20. @docs/style.md");
    writeFile(dir.path / "repo/docs/style.md", "Style: two spaces.");  // outside the workspace: refused
    writeFile(ws / "AGENTS.md", "App agents: @notes/more.md");
    writeFile(ws / "notes/more.md", "More notes.");
    writeFile(ws / "lib/GEMINI.md", "Lib rules.");
    writeFile(ws / "lib/deep/sub/GEMINI.md", "Deep rules.");
    writeFile(ws / "lib/deep/sub/code.txt", "code here");
    lathe = startLathe(*fake, LatheOptions{{}, "gemini-e2e-model", ""},
                       {{"GEMINI_CLI_HOME", home.string()}, {"HOME", home.string()}});
    client = std::make_unique<AcpTestClient>(*lathe, options);
    client->initialize();
    session = client->newSession(ws.string());
    REQUIRE_FALSE(session.empty());
  }
  ~Setup() {
    client.reset();
    if (lathe) finish(*lathe);
  }
};

}  // namespace

TEST_CASE("e2e: the system prompt holds the context files in order, each with its path", "[e2e][memory]") {
  Setup s;
  s.fake->push(ScriptedReply::text("ok"));
  REQUIRE(s.client->prompt(s.session, "hello").stopReason == "end_turn");
  auto requests = s.fake->generateRequests();
  REQUIRE(requests.size() == 1);
  const std::string system = systemTextOf(requests[0].body);
  const std::string global = block(s.home / ".gemini/GEMINI.md", "Global: answer briefly.");
  const std::string repo = block(s.dir.path / "repo/GEMINI.md",
                                 "Repo: use C++20. <!-- Import failed: docs/style.md - outside the folders imports may "
                                 "come from -->");
  const std::string app = block(s.ws / "AGENTS.md",
                                "App agents: <!-- Imported from: notes/more.md -->\nMore notes.\n"
                                "<!-- End of import from: notes/more.md -->");
  const std::string lib = block(s.ws / "lib/GEMINI.md", "Lib rules.");
  INFO(system);
  size_t at[4] = {system.find(global), system.find(repo), system.find(app), system.find(lib)};
  for (size_t i = 0; i < 4; ++i) REQUIRE(at[i] != std::string::npos);
  CHECK(at[0] < at[1]);
  CHECK(at[1] < at[2]);
  CHECK(at[2] < at[3]);
  CHECK(system.find("Deep rules.") != std::string::npos);  // the bounded scan reaches it too (few folders)
  CHECK(system.find("Style: two spaces.") == std::string::npos);
}

TEST_CASE("e2e: save_memory asks with the exact line, then adds it to the global GEMINI.md", "[e2e][memory]") {
  Setup s;
  s.fake->push(ScriptedReply::functionCall("save_memory", R"({"fact":"The user's name is Ada."})"));
  s.fake->push(ScriptedReply::text("I'll remember."));
  auto outcome = s.client->prompt(s.session, "remember that my name is Ada");
  CHECK(outcome.stopReason == "end_turn");
  auto requests = s.fake->generateRequests();
  REQUIRE(requests.size() == 2);
  CHECK(declares(requests[0].body, "save_memory"));

  auto asks = permissionRequests(*s.client);
  REQUIRE(asks.size() == 1);
  const json::Value& toolCall = (*asks[0])["params"]["toolCall"];
  CHECK(json::getStr(toolCall, "kind").value_or("") == "other");
  const std::string shown = json::getStr(toolCall["content"][0]["content"], "text").value_or("");
  const fs::path file = s.home / ".gemini/GEMINI.md";
  CHECK(shown.find(file.string()) != std::string::npos);
  CHECK(shown.find("\n- The user's name is Ada.") != std::string::npos);

  CHECK(readFile(file) == "Global: answer briefly.\n\n## Gemini Added Memories\n- The user's name is Ada.\n");
  auto responses = lastFunctionResponses(requests[1].body);
  REQUIRE(responses.size() == 1);
  CHECK(responseField(responses[0].responseJson, "output").find("- The user's name is Ada.") != std::string::npos);
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e: a rejected save_memory leaves the global GEMINI.md as it was", "[e2e][memory]") {
  AcpClientOptions options;
  options.permissionKind = "reject_once";
  Setup s(options);
  s.fake->push(ScriptedReply::functionCall("save_memory", R"({"fact":"secret"})"));
  s.fake->push(ScriptedReply::text("Not saved."));
  CHECK(s.client->prompt(s.session, "remember").stopReason == "end_turn");
  CHECK(permissionRequests(*s.client).size() == 1);
  CHECK(readFile(s.home / ".gemini/GEMINI.md") == "Global: answer briefly.");
}

TEST_CASE("e2e: a subfolder's context file reaches the model with the first tool result there", "[e2e][memory]") {
  Setup s;
  // Here the scan below the workspace reads one folder: lib/deep/sub waits for a tool.
  writeFile(s.home / ".gemini/settings.json", R"({"context": {"discoveryMaxDirs": 1}})");
  s.client.reset();
  finish(*s.lathe);
  s.lathe = startLathe(*s.fake, LatheOptions{}, {{"GEMINI_CLI_HOME", s.home.string()}, {"HOME", s.home.string()}});
  s.client = std::make_unique<AcpTestClient>(*s.lathe);
  s.client->initialize();
  s.session = s.client->newSession(s.ws.string());
  const fs::path code = s.ws / "lib/deep/sub/code.txt";
  const std::string args = json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "file_path", code.string());
    w.EndObject();
  });
  s.fake->push(ScriptedReply::functionCall("read_file", args));
  s.fake->push(ScriptedReply::functionCall("read_file", args));
  s.fake->push(ScriptedReply::text("read"));
  CHECK(s.client->prompt(s.session, "read the code").stopReason == "end_turn");
  auto requests = s.fake->generateRequests();
  REQUIRE(requests.size() == 3);
  CHECK(systemTextOf(requests[0].body).find("Deep rules.") == std::string::npos);
  auto first = lastFunctionResponses(requests[1].body);
  REQUIRE(first.size() == 1);
  const std::string output = responseField(first[0].responseJson, "output");
  CHECK(output.find("code here") != std::string::npos);
  // Every folder from the workspace root down to the file brings its own, the upper one first.
  CHECK(output.find("--- Newly Discovered Project Context ---\n" + block(s.ws / "lib/GEMINI.md", "Lib rules.") + "\n" +
                    block(s.ws / "lib/deep/sub/GEMINI.md", "Deep rules.") + "\n--- End Project Context ---") !=
        std::string::npos);
  auto second = lastFunctionResponses(requests[2].body);
  REQUIRE(second.size() == 1);
  CHECK(responseField(second[0].responseJson, "output").find("Deep rules.") == std::string::npos);
}

TEST_CASE("e2e: /memory show, refresh and add work through ACP", "[e2e][memory]") {
  Setup s;
  const fs::path global = s.home / ".gemini/GEMINI.md";

  auto show = s.client->prompt(s.session, "/memory show");
  CHECK(show.stopReason == "end_turn");
  const std::string shown = joinedText(show.updates, "agent_message_chunk");
  CHECK(shown.find(global.string() + "\n\nGlobal: answer briefly.") != std::string::npos);
  CHECK(shown.find((s.ws / "AGENTS.md").string()) != std::string::npos);

  // The editor was offered the command, with its input hint (sent after session/new answered).
  bool offered = false;
  for (const auto& m : s.client->messages()) {
    if (kindOf(m) != "available_commands_update") continue;
    for (const auto& command : (*updateOf(m))["availableCommands"].GetArray()) {
      if (json::getStr(command, "name").value_or("") != "memory") continue;
      const json::Value* input = member(command, "input");
      offered = input && json::getStr(*input, "hint").value_or("").find("add <fact>") != std::string::npos;
    }
  }
  CHECK(offered);

  auto add = s.client->prompt(s.session, "/memory add Prefers Meson over CMake");
  CHECK(add.stopReason == "end_turn");
  CHECK(permissionRequests(*s.client).empty());  // the person asked: no second question
  CHECK(readFile(global) == "Global: answer briefly.\n\n## Gemini Added Memories\n- Prefers Meson over CMake\n");
  CHECK(joinedText(add.updates, "agent_message_chunk").find("- Prefers Meson over CMake") != std::string::npos);

  writeFile(s.ws / "lib/GEMINI.md", "Lib rules, changed.");
  auto refresh = s.client->prompt(s.session, "/memory refresh");
  CHECK(refresh.stopReason == "end_turn");
  CHECK(joinedText(refresh.updates, "agent_message_chunk").find("Memory reloaded: 5 context file(s), ") != std::string::npos);
  CHECK(s.fake->generateRequests().empty());  // none of it reached the model

  s.fake->push(ScriptedReply::text("ok"));
  CHECK(s.client->prompt(s.session, "hello").stopReason == "end_turn");
  auto requests = s.fake->generateRequests();
  REQUIRE(requests.size() == 1);
  const std::string system = systemTextOf(requests[0].body);
  CHECK(system.find("- Prefers Meson over CMake") != std::string::npos);
  CHECK(system.find("Lib rules, changed.") != std::string::npos);
  checkAgainstSchema(*s.client);
}
