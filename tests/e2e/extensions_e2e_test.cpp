// End-to-end: Gemini CLI's extension points through the real binary, with a
// home and a workspace holding custom commands (TOML), agent skills
// (SKILL.md) and an extension (gemini-extension.json) whose MCP server is
// npm's server-everything. Commands are offered with
// available_commands_update, namespaced by folder, the workspace's winning,
// and offered again when their files change; {{args}} and the default
// argument rule; `!{…}` and `@{…}` injections asked about like the model's
// calls, a refusal told on a card and nothing sent; skills announced in the
// system prompt, activated by the model (asked) or the person (/<skill>),
// their folder readable afterwards and nothing else; the extension's
// context file, excluded tools, commands and skills; bad files told once.
// Also `lathe extensions` on the command line. Every conversation is
// checked against the ACP schema.
#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

const std::string kEverything =
    std::string(LATHE_SOURCE_DIR) + "/.deps/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js";

// The first available_commands_update (after any earlier) whose commands satisfy `holds`.
Message commandsWhere(AcpTestClient& client, const std::function<bool(const json::Value& commands)>& holds) {
  return client.waitFor([&](const json::Value& m) {
    const json::Value* params = member(m, "params");
    const json::Value* u = params ? member(*params, "update") : nullptr;
    if (!u || json::getStr(*u, "sessionUpdate").value_or("") != "available_commands_update") return false;
    return holds(*member(*u, "availableCommands"));
  });
}

// An update that names (or, with present false, no longer names) `name`.
Message commandsNaming(AcpTestClient& client, const std::string& name, bool present = true) {
  return commandsWhere(client, [&](const json::Value& commands) {
    bool named = false;
    for (const auto& c : commands.GetArray()) named = named || json::getStr(c, "name").value_or("") == name;
    return named == present;
  });
}

// A notice card whose text says `words`.
Message cardSaying(AcpTestClient& client, const std::string& words) {
  return client.waitFor([&](const json::Value& m) {
    const json::Value* params = member(m, "params");
    const json::Value* u = params ? member(*params, "update") : nullptr;
    if (!u || json::getStr(*u, "sessionUpdate").value_or("") != "tool_call_update") return false;
    return json::stringify(*u).find(words) != std::string::npos;
  });
}

std::string allCards(const AcpTestClient& client) { return cardTexts(client.notifications()); }

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string systemText(const std::string& body) {
  auto doc = json::parse(body);
  if (!doc) return "";
  const json::Value* system = member(*doc, "systemInstruction");
  const json::Value* parts = system ? member(*system, "parts") : nullptr;
  return parts && parts->IsArray() && !parts->Empty() ? json::getStr((*parts)[0], "text").value_or("") : "";
}

std::vector<std::string> declaredTools(const std::string& body) {
  std::vector<std::string> names;
  auto doc = json::parse(body);
  const json::Value* tools = doc ? member(*doc, "tools") : nullptr;
  if (!tools || !tools->IsArray()) return names;
  for (const auto& group : tools->GetArray()) {
    const json::Value* declarations = member(group, "functionDeclarations");
    if (!declarations) continue;
    for (const auto& d : declarations->GetArray()) names.push_back(json::getStr(d, "name").value_or(""));
  }
  return names;
}

struct Home {
  TempDir home;
  TempDir ws;
  TempDir state;
  fs::path gemini() const { return home.path / ".gemini"; }
  std::vector<std::pair<std::string, std::string>> env() const {
    return {{"HOME", home.str()}, {"GEMINI_CLI_HOME", home.str()}};
  }
};

// Lathe started on the home against a fake model, initialized, with a session in the workspace.
struct Running {
  std::unique_ptr<FakeGeminiServer> fake;
  std::unique_ptr<Subprocess> agent;
  std::unique_ptr<AcpTestClient> client;
  std::string sid;
};

Running startSession(const Home& h) {
  Running r;
  r.fake = startFake();
  r.agent = startLathe(*r.fake, LatheOptions{{}, "gemini-e2e-model", h.state.str()}, h.env());
  r.client = std::make_unique<AcpTestClient>(*r.agent);
  REQUIRE(r.client->initialize());
  r.sid = r.client->newSession(h.ws.str());
  REQUIRE_FALSE(r.sid.empty());
  return r;
}

}  // namespace

TEST_CASE("e2e: custom commands are offered by folder, the workspace's win, {{args}} fills in, changes are offered again",
          "[e2e][extensions]") {
  Home h;
  writeFile(h.gemini() / "commands" / "git" / "msg.toml",
            "description = \"Write a commit message\"\nprompt = \"\"\"Write a commit message for the staged change.\"\"\"\n");
  writeFile(h.gemini() / "commands" / "hello.toml", "description = \"the person's\"\nprompt = \"the person's hello\"\n");
  writeFile(h.ws.path / ".gemini" / "commands" / "hello.toml", "prompt = \"the workspace's hello to {{args}}!\"\n");
  writeFile(h.ws.path / ".gemini" / "commands" / "broken.toml", "prompt = \"unclosed\n");
  writeFile(h.ws.path / ".gemini" / "commands" / "empty.toml", "description = \"no prompt here\"\n");
  Running r = startSession(h);
  auto& [fake, agent, clientPtr, sid] = r;
  AcpTestClient& client = *clientPtr;
  INFO("lathe stderr:\n" << agent->stderrText());

  Message offered = commandsNaming(client, "git:msg");
  REQUIRE(offered);
  CHECK(has(commandNames(offered), "hello"));
  CHECK(has(commandNames(offered), "help"));
  CHECK_FALSE(has(commandNames(offered), "broken"));
  // Each bad file is told once, naming it, its line and the field.
  REQUIRE(cardSaying(client, "empty.toml"));
  REQUIRE(cardSaying(client, "broken.toml"));
  std::string cards = allCards(client);
  CHECK_THAT(cards, Catch::Contains("empty.toml:") && Catch::Contains("prompt: required string is missing"));
  CHECK_THAT(cards, Catch::Contains("broken.toml:1"));

  fake->push(ScriptedReply::text("Hi."));
  auto hello = client.prompt(sid, "/hello world");
  CHECK(hello.stopReason == "end_turn");
  REQUIRE(fake->generateRequests().size() == 1);
  CHECK_THAT(fake->generateRequests()[0].body, Catch::Contains("the workspace's hello to world!"));
  CHECK(fake->generateRequests()[0].body.find("the person's hello") == std::string::npos);

  // Without {{args}}, the command line typed follows the prompt after a blank line.
  fake->push(ScriptedReply::text("fix: the bug"));
  client.prompt(sid, "/git:msg about the bug");
  REQUIRE(fake->generateRequests().size() == 2);
  CHECK_THAT(fake->generateRequests()[1].body,
             Catch::Contains("Write a commit message for the staged change.\\n\\n/git:msg about the bug"));

  // Files changing mid-session: offered again, without a prompt.
  writeFile(h.ws.path / ".gemini" / "commands" / "review" / "fast.toml", "prompt = \"Review quickly.\"\n");
  REQUIRE(commandsNaming(client, "review:fast"));
  fs::remove(h.gemini() / "commands" / "git" / "msg.toml");
  REQUIRE(commandsNaming(client, "git:msg", false));
  fs::remove(h.ws.path / ".gemini" / "commands" / "hello.toml");
  REQUIRE(commandsWhere(client, [](const json::Value& commands) {
    for (const auto& c : commands.GetArray()) {
      if (json::getStr(c, "name").value_or("") == "hello") return json::getStr(c, "description").value_or("") == "the person's";
    }
    return false;
  }));
  fake->push(ScriptedReply::text("Hello back."));
  client.prompt(sid, "/hello");
  REQUIRE(fake->generateRequests().size() == 3);
  CHECK_THAT(fake->generateRequests()[2].body, Catch::Contains("the person's hello"));
  // The broken files were told once, however often the folder changed.
  cards = allCards(client);
  CHECK(occurrences(cards, "empty.toml:") == 1);

  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: a command's !{…} and @{…} are asked about like the model's calls, and a refusal sends nothing",
          "[e2e][extensions]") {
  Home h;
  writeFile(h.ws.path / "notes.txt", "NOTES-CONTENT\n");
  writeFile(h.ws.path / ".env", "SECRET=1\n");
  writeFile(h.ws.path / ".gemini" / "commands" / "mark.toml",
            "prompt = \"\"\"Marked: !{touch marked && printf '%s' {{args}}} and notes: @{notes.txt}\"\"\"\n");
  writeFile(h.ws.path / ".gemini" / "commands" / "secret.toml", "prompt = \"Here: @{.env}\"\n");
  writeFile(h.ws.path / ".gemini" / "commands" / "outside.toml", "prompt = \"Here: @{/etc/hostname}\"\n");
  Running r = startSession(h);
  auto& [fake, agent, clientPtr, sid] = r;
  AcpTestClient& client = *clientPtr;
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(commandsNaming(client, "mark"));

  // Refused: nothing ran, the person is told on a card, the model gets nothing.
  client.setPermissionKind("reject_once");
  auto refused = client.prompt(sid, "/mark It's complicated");
  CHECK(refused.stopReason == "end_turn");
  CHECK(fake->generateRequests().empty());
  CHECK_FALSE(fs::exists(h.ws.path / "marked"));
  CHECK_THAT(cardTexts(refused.updates), Catch::Contains("/mark was not sent to the model"));
  CHECK(joinedText(refused.updates, "agent_message_chunk").empty());
  REQUIRE(permissionRequests(client).size() == 1);
  CHECK_THAT(json::stringify(*permissionRequests(client)[0]), Catch::Contains("touch marked"));

  // Allowed: the output (the argument quoted for bash) and the file's text go in.
  client.setPermissionKind("allow_once");
  fake->push(ScriptedReply::text("Done."));
  auto allowed = client.prompt(sid, "/mark It's complicated");
  CHECK(allowed.stopReason == "end_turn");
  REQUIRE(fake->generateRequests().size() == 1);
  const std::string body = fake->generateRequests()[0].body;
  CHECK_THAT(body, Catch::Contains("Marked: It's complicated and notes: "));
  CHECK_THAT(body, Catch::Contains("NOTES-CONTENT"));
  CHECK(fs::exists(h.ws.path / "marked"));
  // A workspace's command is the workspace's program: even the read, which asks nothing itself, was asked.
  CHECK(permissionRequests(client).size() == 3);

  // What the person keeps from the model, and what is outside the workspace, is refused.
  auto secret = client.prompt(sid, "/secret");
  CHECK_THAT(cardTexts(secret.updates), Catch::Contains("/secret was not sent to the model") && Catch::Contains(".env"));
  auto outside = client.prompt(sid, "/outside");
  CHECK_THAT(cardTexts(outside.updates), Catch::Contains("/outside was not sent to the model"));
  CHECK(fake->generateRequests().size() == 1);
  CHECK(body.find("SECRET=1") == std::string::npos);

  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: skills are announced, activated by the model after asking, their folder readable, and used by name",
          "[e2e][extensions]") {
  Home h;
  writeFile(h.gemini() / "skills" / "review" / "SKILL.md",
            "---\nname: review\ndescription: Reviews code: style and bugs\n---\nREVIEW-INSTRUCTIONS: read checklist.md first.\n");
  writeFile(h.gemini() / "skills" / "review" / "checklist.md", "CHECKLIST-TEXT\n");
  writeFile(h.gemini() / "skills" / "other.md", "not a skill\n");
  writeFile(h.gemini() / "secret.txt", "PRIVATE\n");
  writeFile(h.ws.path / ".agents" / "skills" / "lint" / "SKILL.md",
            "---\nname: lint\ndescription: Runs the linters\n---\nLINT-BODY\n");
  writeFile(h.ws.path / ".gemini" / "skills" / "nameless" / "SKILL.md", "---\ndescription: no name\n---\nbody\n");
  Running r = startSession(h);
  auto& [fake, agent, clientPtr, sid] = r;
  AcpTestClient& client = *clientPtr;
  INFO("lathe stderr:\n" << agent->stderrText());
  Message offered = commandsNaming(client, "review");
  REQUIRE(offered);
  // The workspace's skill waits for the workspace's consent, asked at the first turn.
  CHECK_FALSE(has(commandNames(offered), "lint"));
  CHECK(has(commandNames(offered), "skills"));
  REQUIRE(cardSaying(client, "has no name"));

  const std::string skillDir = (h.gemini() / "skills" / "review").string();
  std::string activate = json::buildObject([&](json::Writer& w) { json::put(w, "name", "review"); });
  std::string readChecklist = json::buildObject([&](json::Writer& w) { json::put(w, "file_path", skillDir + "/checklist.md"); });
  std::string readSecret =
      json::buildObject([&](json::Writer& w) { json::put(w, "file_path", (h.gemini() / "secret.txt").string()); });
  fake->push(ScriptedReply::functionCall("activate_skill", activate));
  fake->push(ScriptedReply::functionCall("read_file", readChecklist));
  fake->push(ScriptedReply::functionCall("read_file", readSecret));
  fake->push(ScriptedReply::text("Reviewed."));
  auto turn = client.prompt(sid, "review my code");
  CHECK(turn.stopReason == "end_turn");
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 4);
  // Up front: names, descriptions, locations; the body only once activated.
  const std::string system = systemText(requests[0].body);
  CHECK_THAT(system, Catch::Contains("<available_skills>") && Catch::Contains("<name>review</name>") &&
                         Catch::Contains("Reviews code: style and bugs") && Catch::Contains("<name>lint</name>") &&
                         Catch::Contains(skillDir + "/SKILL.md"));
  CHECK(requests[0].body.find("REVIEW-INSTRUCTIONS") == std::string::npos);
  CHECK(has(declaredTools(requests[0].body), "activate_skill"));
  auto activated = lastFunctionResponses(requests[1].body);
  REQUIRE(activated.size() == 1);
  CHECK_THAT(activated[0].responseJson, Catch::Contains("<activated_skill name=\\\"review\\\">") &&
                                            Catch::Contains("REVIEW-INSTRUCTIONS") && Catch::Contains("checklist.md"));
  auto read = lastFunctionResponses(requests[2].body);
  REQUIRE(read.size() == 1);
  CHECK_THAT(read[0].responseJson, Catch::Contains("CHECKLIST-TEXT"));
  auto refused = lastFunctionResponses(requests[3].body);
  REQUIRE(refused.size() == 1);
  CHECK(refused[0].responseJson.find("PRIVATE") == std::string::npos);
  CHECK_THAT(refused[0].responseJson, Catch::Contains("outside the workspace"));
  // The workspace's consent named its skill; then activation was asked about, showing the skill and its folder.
  REQUIRE(permissionRequests(client).size() >= 2);
  CHECK_THAT(json::stringify(*permissionRequests(client)[0]), Catch::Contains("agent skill \\\"lint\\\""));
  CHECK_THAT(json::stringify(*permissionRequests(client)[1]), Catch::Contains("Activate the skill") && Catch::Contains(skillDir));
  CHECK(commandsNaming(client, "lint"));

  // /skills lists them; /lint used by the person sends the instructions and the words.
  auto list = client.prompt(sid, "/skills");
  CHECK_THAT(joinedText(list.updates, "agent_message_chunk"), Catch::Contains("**review**") && Catch::Contains("(active)") &&
                                                                  Catch::Contains("**lint**"));
  fake->push(ScriptedReply::text("Linted."));
  client.prompt(sid, "/lint the src folder");
  REQUIRE(fake->generateRequests().size() == 5);
  CHECK_THAT(fake->generateRequests()[4].body, Catch::Contains("LINT-BODY") && Catch::Contains("the src folder"));

  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: a workspace's skills wait for its consent: refused, the model never hears of them, and one changed after it is left out",
          "[e2e][extensions]") {
  Home h;
  writeFile(h.ws.path / ".gemini" / "skills" / "deploy" / "SKILL.md",
            "---\nname: deploy\ndescription: Deploys to production\n---\nDEPLOY-BODY\n");
  SECTION("refused") {
    Running r = startSession(h);
    auto& [fake, agent, clientPtr, sid] = r;
    AcpTestClient& client = *clientPtr;
    INFO("lathe stderr:\n" << agent->stderrText());
    client.setHandler("session/request_permission", [](const std::string&, const json::Value&) {
      return HandlerReply::result(R"({"outcome":{"outcome":"selected","optionId":"workspace_reject_once"}})");
    });
    fake->push(ScriptedReply::text("Hello."));
    CHECK(client.prompt(sid, "hi").stopReason == "end_turn");
    REQUIRE(fake->generateRequests().size() == 1);
    // (The folder shows in the workspace's tree; the skill itself never does.)
    CHECK(fake->generateRequests()[0].body.find("Deploys to production") == std::string::npos);
    CHECK(fake->generateRequests()[0].body.find("<name>deploy</name>") == std::string::npos);
    CHECK(cardSaying(client, "The agent skills deploy from this workspace were not given"));
    auto list = client.prompt(sid, "/skills reload");
    CHECK(joinedText(list.updates, "agent_message_chunk").find("**deploy**") == std::string::npos);
    checkAgainstSchema(client);
    finish(*agent);
  }
  SECTION("allowed, then changed") {
    Running r = startSession(h);
    auto& [fake, agent, clientPtr, sid] = r;
    AcpTestClient& client = *clientPtr;
    INFO("lathe stderr:\n" << agent->stderrText());
    fake->push(ScriptedReply::text("Hello."));
    CHECK(client.prompt(sid, "hi").stopReason == "end_turn");
    REQUIRE(fake->generateRequests().size() == 1);
    CHECK_THAT(systemText(fake->generateRequests()[0].body), Catch::Contains("<name>deploy</name>"));
    writeFile(h.ws.path / ".gemini" / "skills" / "deploy" / "SKILL.md",
              "---\nname: deploy\ndescription: Deploys to production\n---\nDEPLOY-BODY, and push --force\n");
    auto list = client.prompt(sid, "/skills reload");
    CHECK(joinedText(list.updates, "agent_message_chunk").find("**deploy**") == std::string::npos);
    CHECK(cardSaying(client, "new or changed since you allowed"));
    checkAgainstSchema(client);
    finish(*agent);
  }
}

TEST_CASE("e2e: an extension brings its MCP server, context file, excluded tools, commands and skills, and a bad one is told",
          "[e2e][extensions]") {
  Home h;
  const fs::path ext = h.gemini() / "extensions" / "tools-ext";
  writeFile(ext / "gemini-extension.json", json::buildObject([&](json::Writer& w) {
              json::put(w, "name", "tools-ext");
              json::put(w, "version", "1.2.3");
              json::put(w, "contextFileName", "CONTEXT.md");
              json::array(w, "excludeTools", [&] { json::str(w, "web_fetch"); });
              json::object(w, "mcpServers", [&] {
                json::object(w, "everything", [&] {
                  json::put(w, "command", "node");
                  json::array(w, "args", [&] {
                    json::str(w, kEverything);
                    json::str(w, "stdio");
                  });
                  json::put(w, "cwd", "${extensionPath}");
                  json::put(w, "trust", true);
                });
              });
            }));
  writeFile(ext / "CONTEXT.md", "EXTENSION-CONTEXT: answer in haiku.\n");
  // Command files are not hydrated (as in Gemini CLI): only the manifest, hooks and skills are.
  writeFile(ext / "commands" / "deploy" / "prod.toml", "prompt = \"Deploy from ${extensionPath}\"\n");
  writeFile(ext / "skills" / "audit" / "SKILL.md", "---\nname: audit\ndescription: Audits\n---\nAUDIT-BODY\n");
  writeFile(h.gemini() / "extensions" / "no-manifest" / "README.md", "nothing\n");
  Running r = startSession(h);
  auto& [fake, agent, clientPtr, sid] = r;
  AcpTestClient& client = *clientPtr;
  INFO("lathe stderr:\n" << agent->stderrText());
  Message offered = commandsNaming(client, "deploy:prod");
  REQUIRE(offered);
  CHECK(has(commandNames(offered), "tools-ext:audit"));  // an extension's skill is always named with it
  CHECK(has(commandNames(offered), "extensions"));
  REQUIRE(cardSaying(client, "no-manifest"));
  CHECK_THAT(allCards(client), Catch::Contains("no gemini-extension.json"));

  fake->push(ScriptedReply::text("Fine."));
  auto turn = client.prompt(sid, "hi");
  CHECK(turn.stopReason == "end_turn");
  REQUIRE(fake->generateRequests().size() == 1);
  const std::string body = fake->generateRequests()[0].body;
  CHECK_THAT(body, Catch::Contains("<extension_context>") && Catch::Contains("EXTENSION-CONTEXT: answer in haiku."));
  auto tools = declaredTools(body);
  CHECK_FALSE(has(tools, "web_fetch"));
  CHECK(has(tools, "everything__echo"));
  CHECK(has(tools, "activate_skill"));

  // The server's calls are asked about: an extension cannot trust itself.
  std::string echo = json::buildObject([&](json::Writer& w) { json::put(w, "message", "ping"); });
  fake->push(ScriptedReply::functionCall("everything__echo", echo));
  fake->push(ScriptedReply::text("Echoed."));
  const size_t asked = permissionRequests(client).size();
  client.prompt(sid, "echo ping");
  CHECK(permissionRequests(client).size() == asked + 1);

  auto list = client.prompt(sid, "/extensions");
  CHECK_THAT(joinedText(list.updates, "agent_message_chunk"),
             Catch::Contains("**tools-ext** 1.2.3: enabled here") && Catch::Contains("MCP servers: everything"));
  fake->push(ScriptedReply::text("Deploying."));
  client.prompt(sid, "/deploy:prod");
  CHECK_THAT(fake->generateRequests().back().body, Catch::Contains("Deploy from ${extensionPath}"));

  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: an extension's hooks run as the person's own (with their env), on custom commands' injections too, and its policy rules refuse",
          "[e2e][extensions]") {
  Home h;
  const fs::path ext = h.gemini() / "extensions" / "guard-ext";
  writeFile(ext / "gemini-extension.json", R"({"name": "guard-ext", "version": "0.1.0"})");
  writeFile(ext / "hooks" / "hooks.json", R"({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
      {"type": "command", "name": "no-shell", "env": {"GUARD_REASON": "the extension says no"},
       "command": "cat >/dev/null; printf '{\"decision\":\"deny\",\"reason\":\"%s\"}' \"$GUARD_REASON\""}]}]}})");
  writeFile(ext / "policies" / "rules.toml",
            "[[rule]]\ntoolName = \"write_file\"\ndecision = \"deny\"\npriority = 100\n"
            "denyMessage = \"No writes while guard-ext is on.\"\n");
  writeFile(h.gemini() / "commands" / "mark.toml", "prompt = \"Marked: !{touch marked}\"\n");
  Running r = startSession(h);
  auto& [fake, agent, clientPtr, sid] = r;
  AcpTestClient& client = *clientPtr;
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(commandsNaming(client, "mark"));
  client.setPermissionKind("allow_once");

  // The person's injection stands before the extension's hook: refused, nothing sent.
  auto injected = client.prompt(sid, "/mark");
  CHECK(injected.stopReason == "end_turn");
  CHECK(fake->generateRequests().empty());
  CHECK_FALSE(fs::exists(h.ws.path / "marked"));
  CHECK_THAT(cardTexts(injected.updates), Catch::Contains("/mark was not sent to the model") &&
                                              Catch::Contains("the extension says no"));

  // The model's shell call: blocked by the hook, whatever the person would answer.
  fake->push(ScriptedReply::functionCall("run_shell_command", json::buildObject([&](json::Writer& w) {
                                            json::put(w, "command", "touch shell-made");
                                          })));
  fake->push(ScriptedReply::text("Blocked."));
  client.prompt(sid, "make a file");
  CHECK_FALSE(fs::exists(h.ws.path / "shell-made"));
  CHECK_THAT(fake->generateRequests().back().body, Catch::Contains("Tool execution blocked: the extension says no"));

  // The model's write: refused by the extension's policy rule, never asked.
  const size_t asked = permissionRequests(client).size();
  fake->push(ScriptedReply::functionCall("write_file", json::buildObject([&](json::Writer& w) {
                                            json::put(w, "file_path", (h.ws.path / "written.txt").string());
                                            json::put(w, "content", "x");
                                          })));
  fake->push(ScriptedReply::text("Refused."));
  client.prompt(sid, "write a file");
  CHECK_FALSE(fs::exists(h.ws.path / "written.txt"));
  CHECK(permissionRequests(client).size() == asked);
  CHECK_THAT(fake->generateRequests().back().body, Catch::Contains("No writes while guard-ext is on."));

  auto list = client.prompt(sid, "/extensions");
  CHECK_THAT(joinedText(list.updates, "agent_message_chunk"),
             Catch::Contains("hooks: " + (ext / "hooks" / "hooks.json").string()));
  checkAgainstSchema(client);
  finish(*agent);
}

// An extension to install: a folder with its manifest and one command.
static fs::path greeterExtension(const TempDir& src) {
  const fs::path folder = src.path / "greeter";
  writeFile(folder / "gemini-extension.json", "{\"name\": \"greeter\", \"version\": \"0.1.0\"}\n");
  writeFile(folder / "commands" / "greet.toml", "prompt = \"Greet.\"\n");
  return folder;
}

TEST_CASE("e2e: lathe extensions installs from a folder or a git repository, links, disables, enables and uninstalls",
          "[e2e][extensions]") {
  Home h;
  TempDir src;
  const fs::path folder = greeterExtension(src);
  auto run = [&](std::vector<std::string> args, const std::string& cwd) {
    args.insert(args.begin(), "extensions");
    return runLathe(args, cwd, h.env());
  };

  auto refused = run({"install", folder.string()}, h.ws.str());
  CHECK_FALSE(refused.status.success());
  CHECK_THAT(refused.err, Catch::Contains("Installing the extension \"greeter\"") && Catch::Contains("--consent"));
  CHECK_FALSE(fs::exists(h.gemini() / "extensions" / "greeter"));

  auto installed = run({"install", folder.string(), "--consent"}, h.ws.str());
  INFO(installed.err);
  REQUIRE(installed.status.success());
  CHECK(fs::exists(h.gemini() / "extensions" / "greeter" / "commands" / "greet.toml"));
  CHECK_FALSE(run({"install", folder.string(), "--consent"}, h.ws.str()).status.success());  // already there

  auto listed = run({"list"}, h.ws.str());
  CHECK_THAT(listed.out, Catch::Contains("✓ greeter (0.1.0)") && Catch::Contains("Type: local"));
  REQUIRE(run({"disable", "greeter", "--scope", "workspace"}, h.ws.str()).status.success());
  CHECK_THAT(run({"list"}, h.ws.str()).out, Catch::Contains("✗ greeter"));
  REQUIRE(run({"enable", "greeter", "--scope", "workspace"}, h.ws.str()).status.success());
  CHECK_THAT(run({"list"}, h.ws.str()).out, Catch::Contains("✓ greeter"));
  REQUIRE(run({"uninstall", "greeter"}, h.ws.str()).status.success());
  CHECK_FALSE(fs::exists(h.gemini() / "extensions" / "greeter"));

  // From a git repository (a local one: no network), with git clone.
  auto git = [&](std::vector<std::string> args) {
    SubprocessOptions spawn;
    spawn.argv = {"git", "-c", "user.name=t", "-c", "user.email=t@t"};
    spawn.argv.insert(spawn.argv.end(), args.begin(), args.end());
    spawn.cwd = folder.string();
    auto child = Subprocess::spawn(spawn);
    REQUIRE(child);
    (*child)->closeStdin();
    auto status = (*child)->wait(kExitGuard);
    REQUIRE(status);
    REQUIRE(status->success());
  };
  git({"init", "-q"});
  git({"add", "."});
  git({"commit", "-q", "-m", "first"});
  auto cloned = run({"install", "file://" + folder.string(), "--consent"}, h.ws.str());
  INFO(cloned.err);
  REQUIRE(cloned.status.success());
  CHECK(fs::exists(h.gemini() / "extensions" / "greeter" / "commands" / "greet.toml"));
  CHECK_THAT(run({"list"}, h.ws.str()).out, Catch::Contains("Type: git"));
  REQUIRE(run({"uninstall", "greeter"}, h.ws.str()).status.success());

  // Linked: used where it is, changes seen at once.
  REQUIRE(run({"link", folder.string(), "--consent"}, h.ws.str()).status.success());
  CHECK_FALSE(fs::exists(h.gemini() / "extensions" / "greeter" / "commands"));
  CHECK_THAT(run({"list"}, h.ws.str()).out, Catch::Contains("Path: " + folder.string()) && Catch::Contains("Type: link"));
  REQUIRE(run({"uninstall", "greeter"}, h.ws.str()).status.success());
  CHECK(fs::exists(folder / "gemini-extension.json"));  // the source stays
}

TEST_CASE("e2e: /extensions installs after asking, disables, enables and uninstalls from a session",
          "[e2e][extensions]") {
  Home h;
  TempDir src;
  const fs::path folder = greeterExtension(src);
  Running r = startSession(h);
  auto& [fake, agent, clientPtr, sid] = r;
  AcpTestClient& client = *clientPtr;
  INFO("lathe stderr:\n" << agent->stderrText());
  std::string answer = "extension_refuse";
  client.setHandler("session/request_permission", [&](const std::string&, const json::Value&) {
    return HandlerReply::result(R"({"outcome":{"outcome":"selected","optionId":")" + answer + R"("}})");
  });
  auto said = [&](const std::string& line) { return joinedText(client.prompt(sid, line).updates, "agent_message_chunk"); };

  // Refused: nothing installed, and the question showed what it brings.
  CHECK(client.prompt(sid, "/extensions install " + folder.string()).stopReason == "end_turn");
  CHECK_FALSE(fs::exists(h.gemini() / "extensions" / "greeter"));
  REQUIRE(permissionRequests(client).size() == 1);
  CHECK_THAT(json::stringify(*permissionRequests(client)[0]), Catch::Contains("Installing the extension \\\"greeter\\\""));

  answer = "extension_install";
  CHECK_THAT(said("/extensions install " + folder.string()),
             Catch::Contains("Extension \"greeter\" installed and enabled. It applies from the next session."));
  CHECK(fs::exists(h.gemini() / "extensions" / "greeter" / "commands" / "greet.toml"));
  CHECK_THAT(said("/extensions disable greeter --scope workspace"), Catch::Contains("disabled for the scope \"workspace\""));
  CHECK_THAT(said("/extensions enable greeter"), Catch::Contains("enabled for the scope \"user\""));
  CHECK_THAT(said("/extensions uninstall greeter"), Catch::Contains("Extension \"greeter\" uninstalled."));
  CHECK_FALSE(fs::exists(h.gemini() / "extensions" / "greeter"));
  // Bad input is an error naming what is wrong, and changes nothing.
  CHECK_THAT(said("/extensions enable greeter --scope galaxy"), Catch::Contains("--scope must be user or workspace"));
  CHECK_THAT(said("/extensions frobnicate"), Catch::Contains("unknown subcommand \"frobnicate\""));
  CHECK(fake->generateRequests().empty());  // none of it reached the model
  checkAgainstSchema(client);
  finish(*agent);
}
