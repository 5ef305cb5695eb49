// Workspace consent: the record on disk (per workspace, per exact
// configuration), the question through the editor and every way it fails
// closed, the servers a session gets from settings, and reading a
// workspace's program settings.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "engine/config/consent_store.h"
#include "engine/config/program_settings.h"
#include "engine/config/workspace_programs.h"
#include "engine/agent/session_programs.h"
#include "engine/agent/workspace_consent.h"
#include "tests/engine/session/fake_editor.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using testing::FakeEditor;
using tools::mcp::ServerConfig;

namespace {

ServerConfig server(const std::string& name, ServerConfig::Origin origin, bool trust = false) {
  ServerConfig config;
  config.name = name;
  config.origin = origin;
  config.trust = trust;
  config.transport = tools::mcp::StdioTransport{name + "-bin", {}, {}, std::nullopt};
  return config;
}

WorkspacePrograms sample(const std::string& text) {
  WorkspacePrograms programs;
  programs.settingsPath = "/w/.gemini/settings.json";
  programs.text = text;
  programs.programs.mcpServers.push_back(server("srv", ServerConfig::Origin::workspaceSettings, true));
  programs.programs.discoveryCommand = "./discover";
  return programs;
}

}  // namespace

TEST_CASE("consent store: per workspace and exact configuration, across instances, broken file means ask") {
  testing::TempDir state;
  ConsentStore store(state.str() + "/lathe");
  CHECK(store.lookup("/w", "config A") == Consent::unknown);
  REQUIRE(store.record("/w", "config A", Consent::allowed));
  REQUIRE(store.record("/v", "config A", Consent::refused));
  ConsentStore again(state.str() + "/lathe");
  CHECK(again.lookup("/w", "config A") == Consent::allowed);
  CHECK(again.lookup("/w", "config A ") == Consent::unknown);  // any change asks again
  CHECK(again.lookup("/v", "config A") == Consent::refused);
  CHECK(again.lookup("/u", "config A") == Consent::unknown);
  REQUIRE(again.record("/w", "config B", Consent::allowed));
  CHECK(store.lookup("/w", "config A") == Consent::unknown);  // one record per workspace: the latest
  CHECK(store.lookup("/w", "config B") == Consent::allowed);

  std::ofstream(store.filePath()) << "{not json";
  CHECK(store.lookup("/w", "config B") == Consent::unknown);
  REQUIRE(store.record("/w", "config B", Consent::allowed));
  CHECK(store.lookup("/w", "config B") == Consent::allowed);

  ConsentStore none("");
  REQUIRE(none.record("/w", "x", Consent::allowed));
  CHECK(none.lookup("/w", "x") == Consent::unknown);
  CHECK(sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("consent question: the answers, remembered or not, and failing closed") {
  testing::TempDir state;
  ConsentStore store(state.str());
  WorkspacePrograms programs = sample("v1");
  ConsentQuestion question{"s", "/w", &programs, false};
  FakeEditor editor;

  editor.answer = [](const acp::RequestPermissionRequest&) { return FakeEditor::select("workspace_reject_once"); };
  CHECK(askWorkspaceConsent(editor, store, question, CancelToken()) == ConsentOutcome::refused);
  REQUIRE(editor.asked.size() == 1);
  const auto& ask = editor.asked[0];
  REQUIRE(ask.toolCall.content);
  std::string shown = (*ask.toolCall.content)[0].text;
  CHECK_THAT(shown, Catch::Contains("MCP server \"srv\": `srv-bin`"));
  CHECK_THAT(shown, Catch::Contains("with trust: true (its tools run without asking)"));
  CHECK_THAT(shown, Catch::Contains("tool discovery: `./discover`"));
  CHECK(ask.options.size() == 4);
  CHECK(store.lookup("/w", "v1") == Consent::unknown);  // "not now" is not remembered

  editor.answer = [](const acp::RequestPermissionRequest&) { return FakeEditor::select("workspace_allow_once"); };
  CHECK(askWorkspaceConsent(editor, store, question, CancelToken()) == ConsentOutcome::allowed);
  CHECK(store.lookup("/w", "v1") == Consent::unknown);

  // Fail closed: errors, unknown options; a cancelled question is cancelled.
  editor.answer = [](const acp::RequestPermissionRequest&) -> Result<acp::RequestPermissionResponse> {
    return makeError(Errc::timeout, "no answer");
  };
  CHECK(askWorkspaceConsent(editor, store, question, CancelToken()) == ConsentOutcome::refused);
  editor.answer = [](const acp::RequestPermissionRequest&) { return FakeEditor::select("allow_once"); };
  CHECK(askWorkspaceConsent(editor, store, question, CancelToken()) == ConsentOutcome::refused);
  editor.answer = [](const acp::RequestPermissionRequest&) { return acp::RequestPermissionResponse{}; };
  CHECK(askWorkspaceConsent(editor, store, question, CancelToken()) == ConsentOutcome::cancelled);
  CHECK(store.lookup("/w", "v1") == Consent::unknown);

  editor.answer = [](const acp::RequestPermissionRequest&) { return FakeEditor::select("workspace_allow_always"); };
  CHECK(askWorkspaceConsent(editor, store, question, CancelToken()) == ConsentOutcome::allowed);
  size_t asked = editor.asked.size();
  CHECK(askWorkspaceConsent(editor, store, question, CancelToken()) == ConsentOutcome::allowed);
  CHECK(editor.asked.size() == asked);  // remembered

  WorkspacePrograms changed = sample("v2");
  ConsentQuestion changedQuestion{"s", "/w", &changed, false};
  editor.answer = [](const acp::RequestPermissionRequest&) { return FakeEditor::select("workspace_reject_always"); };
  CHECK(askWorkspaceConsent(editor, store, changedQuestion, CancelToken()) == ConsentOutcome::refused);
  CHECK(editor.asked.size() == asked + 1);
  CHECK(askWorkspaceConsent(editor, store, changedQuestion, CancelToken()) == ConsentOutcome::refused);
  CHECK(editor.asked.size() == asked + 1);  // "never" is remembered too

  ConsentQuestion trusted{"s", "/elsewhere", &changed, true};
  CHECK(askWorkspaceConsent(editor, store, trusted, CancelToken()) == ConsentOutcome::allowed);
  CHECK(editor.asked.size() == asked + 1);  // --trust-workspace asks nobody
}

TEST_CASE("the servers settings give a session: consent, replacement, mcp.excluded and mcp.allowed") {
  using Origin = ServerConfig::Origin;
  ProgramSettings user;
  user.mcpServers = {server("a", Origin::userSettings, true), server("b", Origin::userSettings)};
  ProgramSettings workspace;
  workspace.mcpServers = {server("b", Origin::workspaceSettings, true), server("c", Origin::workspaceSettings, true)};
  auto names = [](const std::vector<ServerConfig>& servers) {
    std::vector<std::string> out;
    for (const auto& s : servers) out.push_back(s.name);
    return out;
  };
  CHECK(names(mcpServersFromSettings(user, nullptr, std::nullopt, {})) == std::vector<std::string>{"a", "b"});
  auto merged = mcpServersFromSettings(user, &workspace, std::nullopt, {});
  REQUIRE(names(merged) == std::vector<std::string>{"a", "b", "c"});
  CHECK(merged[0].trust);                                   // the user's trust stands
  CHECK(merged[1].origin == Origin::workspaceSettings);     // replaced by the workspace's
  CHECK_FALSE(merged[1].trust);                             // a workspace cannot trust itself
  CHECK_FALSE(merged[2].trust);
  auto consented = mcpServersFromSettings(user, &workspace, std::nullopt, {}, /*keepWorkspaceTrust=*/true);
  CHECK(consented[1].trust);  // once the person allowed the configuration that says so
  CHECK(consented[2].trust);
  CHECK(names(mcpServersFromSettings(user, &workspace, std::nullopt, {"b"})) == std::vector<std::string>{"a", "c"});
  CHECK(names(mcpServersFromSettings(user, &workspace, std::vector<std::string>{"c", "z"}, {})) ==
        std::vector<std::string>{"c"});
  CHECK(mcpServerPermitted("x", std::nullopt, {}));
  CHECK_FALSE(mcpServerPermitted("x", std::nullopt, {"x"}));
  CHECK_FALSE(mcpServerPermitted("x", std::vector<std::string>{}, {}));
  CHECK(unaskedMcpServers(user, std::vector<std::string>{"m"}) == std::vector<std::string>{"m", "a"});
}

TEST_CASE("reading a workspace's programs: none, some, broken, or the user's own file") {
  testing::TempDir ws;
  auto none = readWorkspacePrograms(ws.str(), "");
  REQUIRE(none);
  CHECK_FALSE(*none);
  ws.write(".gemini/settings.json", R"({"model": {"name": "m"}, "tools": {"exclude": ["glob"]}})");
  auto quiet = readWorkspacePrograms(ws.str(), "");
  REQUIRE(quiet);
  CHECK_FALSE(*quiet);  // settings that start nothing need no consent

  auto settings = ws.write(".gemini/settings.json",
                           R"({"mcpServers": {"s": {"command": "x", "env": {"K": "$LATHE_TEST_UNSET_VAR"}}},
                               "tools": {"discoveryCommand": "d"}})");
  auto some = readWorkspacePrograms(ws.str(), "");
  REQUIRE(some);
  REQUIRE(*some);
  CHECK((*some)->settingsPath == ws.str() + "/.gemini/settings.json");
  REQUIRE((*some)->programs.mcpServers.size() == 1);
  CHECK((*some)->programs.mcpServers[0].origin == ServerConfig::Origin::workspaceSettings);
  CHECK((*some)->programs.discoveryCommand == "d");
  CHECK_FALSE((*some)->text.empty());

  auto home = readWorkspacePrograms(ws.str(), settings.string());
  REQUIRE(home);
  CHECK_FALSE(*home);  // a workspace at home: these are the user's settings

  ws.write(".gemini/settings.json", R"({"mcpServers": {"s": {"url": 5}}})");
  auto broken = readWorkspacePrograms(ws.str(), "");
  REQUIRE_FALSE(broken);
  CHECK_THAT(broken.error().message, Catch::Contains(".gemini/settings.json.mcpServers.s.url: expected a string"));
}

namespace {

// A session's start-up hook over a fake editor, with the discovery script.
struct ProgramsFixture {
  testing::TempDir ws;
  testing::TempDir state;
  FakeEditor editor;
  tools::ToolRegistry registry;
  AgentConfig config;
  std::vector<std::vector<ServerConfig>> started;
  std::unique_ptr<SessionPrograms> programs;

  std::vector<HookSet> hooksStarted;

  explicit ProgramsFixture(const std::string& answer, FolderTrust trust = FolderTrust::unknown) {
    const std::string script = std::string(LATHE_SOURCE_DIR) + "/tests/support/discovery_tool.sh";
    WorkspacePrograms found;
    found.settingsPath = ws.str() + "/.gemini/settings.json";
    found.text = "workspace config";
    found.programs.mcpServers = {server("mine", ServerConfig::Origin::workspaceSettings, true),
                                 server("dropped", ServerConfig::Origin::workspaceSettings)};
    found.programs.discoveryCommand = "bash '" + script + "' discover bare '" + (ws.path / "ran").string() + "'";
    found.programs.callCommand = "bash '" + script + "' call";
    HookDefinition hook;
    hook.event = HookEvent::BeforeTool;
    hook.command = "true";
    found.hooks.definitions.push_back(hook);
    config.mcpExcluded = {"dropped"};
    editor.answer = [answer](const acp::RequestPermissionRequest&) -> Result<acp::RequestPermissionResponse> {
      if (answer == "cancel") return acp::RequestPermissionResponse{};
      return FakeEditor::select(answer);
    };
    SessionPrograms::Setup setup{
        .sessionId = "s",
        .workspaceRoot = ws.str(),
        .workspace = std::move(found),
        .consent = std::make_shared<ConsentStore>(state.str()),
        .startMcpServers = [this](std::vector<ServerConfig> servers) { started.push_back(std::move(servers)); },
        .startHooks = [this](HookSet hooks) { hooksStarted.push_back(std::move(hooks)); },
        .trust = FolderTrustVerdict{trust, "trustedFolders.json marks it", ""},
        .grantWidening = nullptr,
        .ignoredNotice = {},
        .notices = {},
    };
    programs = std::make_unique<SessionPrograms>(std::move(setup), config, editor, registry);
  }
  void turn() {
    History history;
    CHECK_FALSE(programs->onPrompt({}, history, CancelToken()));
  }
};

}  // namespace

TEST_CASE("session start-up: refused, nothing runs or starts, told on a card") {
  ProgramsFixture f("workspace_reject_once");
  f.turn();
  CHECK(f.editor.asked.size() == 1);
  CHECK_FALSE(std::filesystem::exists(f.ws.path / "ran"));
  CHECK(f.started.empty());
  CHECK(f.hooksStarted.empty());
  CHECK_FALSE(f.registry.find("discovered_tool_echo"));
  auto cards = f.editor.all<acp::ToolCallUpdate>();
  REQUIRE_FALSE(cards.empty());
  CHECK_THAT(cards.back().content->front().text, Catch::Contains("did not start the programs"));
  f.turn();  // later turns do not ask again
  CHECK(f.editor.asked.size() == 1);
}

TEST_CASE("session start-up: allowed, discovery tools join and the workspace's servers start with their trust") {
  ProgramsFixture f("workspace_allow_once");
  f.turn();
  CHECK(std::filesystem::exists(f.ws.path / "ran"));
  auto source = f.registry.sourceOf("discovered_tool_echo");
  REQUIRE(source);
  CHECK(source->group == tools::ToolSource::Group::discovered);
  REQUIRE(f.started.size() == 1);
  REQUIRE(f.started[0].size() == 1);  // mcp.excluded drops the other
  CHECK(f.started[0][0].name == "mine");
  CHECK(f.started[0][0].trust);  // consented: the configuration shown included it
  REQUIRE(f.hooksStarted.size() == 1);  // the workspace's hooks join the session's
  CHECK(f.hooksStarted[0].definitions.size() == 1);
  f.turn();
  CHECK(f.started.size() == 1);  // once per session
}

TEST_CASE("session start-up: Gemini CLI's trust in the folder is the answer, told on a card") {
  {
    ProgramsFixture f("workspace_reject_once", FolderTrust::trusted);
    f.turn();
    CHECK(f.editor.asked.empty());
    CHECK(std::filesystem::exists(f.ws.path / "ran"));
    CHECK(f.started.size() == 1);
    CHECK(f.hooksStarted.size() == 1);
    auto cards = f.editor.all<acp::ToolCallUpdate>();
    REQUIRE_FALSE(cards.empty());
    CHECK_THAT(cards.front().content->front().text, Catch::Contains("without asking: trustedFolders.json marks it"));
  }
  {
    ProgramsFixture f("workspace_allow_once", FolderTrust::untrusted);
    f.turn();
    CHECK(f.editor.asked.empty());
    CHECK_FALSE(std::filesystem::exists(f.ws.path / "ran"));
    CHECK(f.started.empty());
    CHECK(f.hooksStarted.empty());
    auto cards = f.editor.all<acp::ToolCallUpdate>();
    REQUIRE(cards.size() == 2);
    CHECK_THAT(cards[0].content->front().text, Catch::Contains("did not apply"));
    CHECK_THAT(cards[1].content->front().text, Catch::Contains("did not start the programs"));
  }
}

TEST_CASE("session start-up: a cancelled question starts nothing and asks again next turn") {
  ProgramsFixture f("cancel");
  f.turn();
  CHECK(f.started.empty());
  CHECK_FALSE(std::filesystem::exists(f.ws.path / "ran"));
  f.turn();
  CHECK(f.editor.asked.size() == 2);
}
