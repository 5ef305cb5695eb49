// A workspace's settings merged into a session's config: every widening key
// is left out without consent and applied with it, narrowing and tuning keys
// always apply, the --settings file and the command line still win, and a
// broken or absent file is told apart.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "engine/config/workspace_settings.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;

namespace {

struct Workspace {
  testing::TempDir dir;
  explicit Workspace(const std::string& text) {
    std::filesystem::create_directories(dir.path / ".gemini");
    std::ofstream(dir.path / ".gemini/settings.json") << text;
  }
  Result<std::optional<WorkspaceSettings>> read() const { return readWorkspaceSettings(dir.str(), ""); }
};

WorkspaceSettings sorted(const std::string& text) {
  Workspace ws(text);
  auto read = ws.read();
  REQUIRE(read);
  REQUIRE(*read);
  return std::move(**read);
}

AgentConfig configFor(const std::string& text, bool widen, AgentConfig user = {}) {
  auto config = sessionConfigFor(user, sorted(text), widen);
  REQUIRE(config);
  return std::move(config).value();
}

}  // namespace

TEST_CASE("workspace settings: each widening key waits for consent") {
  struct Row {
    const char* text;
    const char* key;
    std::function<bool(const AgentConfig&)> applied;
  };
  std::vector<Row> rows = {
      {R"({"tools": {"allowed": ["run_shell_command"]}})", "tools.allowed",
       [](const AgentConfig& c) { return c.allowedTools == std::vector<std::string>{"run_shell_command"}; }},
      {R"({"general": {"defaultApprovalMode": "yolo"}})", "general.defaultApprovalMode",
       [](const AgentConfig& c) { return c.approvalMode == ApprovalMode::yolo; }},
      {R"({"general": {"defaultApprovalMode": "autoEdit"}})", "general.defaultApprovalMode",
       [](const AgentConfig& c) { return c.approvalMode == ApprovalMode::autoEdit; }},
      {R"({"mcp": {"allowed": ["srv"]}})", "mcp.allowed",
       [](const AgentConfig& c) { return c.mcpAllowed == std::vector<std::string>{"srv"}; }},
      {R"({"tools": {"sandbox": false}})", "tools.sandbox", [](const AgentConfig& c) { return !c.shell.sandbox; }},
      {R"({"tools": {"sandboxNetwork": true}})", "tools.sandboxNetwork",
       [](const AgentConfig& c) { return c.shell.sandboxNetwork; }},
  };
  for (const auto& row : rows) {
    INFO(row.text);
    AgentConfig user;
    user.shell.sandbox = true;  // so that tools.sandbox: false would loosen it
    auto ws = sorted(row.text);
    REQUIRE(ws.wideningKeys == std::vector<std::string>{row.key});
    CHECK_THAT(ws.wideningText, Catch::Contains(row.key));
    auto without = sessionConfigFor(user, ws, false);
    REQUIRE(without);
    CHECK_FALSE(row.applied(*without));
    auto with = sessionConfigFor(user, ws, true);
    REQUIRE(with);
    CHECK(row.applied(*with));
    CHECK_THAT(ignoredNotice(ws), Catch::Contains(row.key) && Catch::Contains("--trust-workspace"));
  }
}

TEST_CASE("workspace settings: narrowing and tuning keys apply without consent") {
  AgentConfig user;
  user.excludeTools = {"glob"};
  user.mcpExcluded = {"a"};
  user.modelChoices = {"gemini-2.5-pro", "gemini-2.5-flash"};
  auto ws = sorted(R"({
      "model": {"name": "gemini-2.5-flash", "compressionThreshold": 0.5, "disableLoopDetection": true,
                "summarizeToolOutput": {"run_shell_command": {"tokenBudget": 300}}, "contextLimits": {"m": 5000}},
      "tools": {"core": ["read_file", "glob"], "exclude": ["write_file"], "truncateToolOutputThreshold": 5000,
                "sandbox": "docker", "sandboxNetwork": false},
      "mcp": {"excluded": ["b"]},
      "general": {"defaultApprovalMode": "plan"}})");
  CHECK(ws.wideningKeys.empty());
  CHECK(ws.wideningText.empty());
  auto config = sessionConfigFor(user, ws, false);
  REQUIRE(config);
  CHECK(config->model == "gemini-2.5-flash");
  CHECK(config->modelChoices.front() == "gemini-2.5-flash");
  CHECK(config->modelChoices.size() == 2);
  CHECK(config->context.compressionThreshold == 0.5);
  CHECK_FALSE(config->context.loopDetection);
  CHECK(config->context.summarizeTools.at("run_shell_command") == 300);
  CHECK(config->contextLimits.at("m") == 5000);
  CHECK(config->coreTools == std::vector<std::string>{"read_file", "glob"});
  CHECK(config->excludeTools == std::vector<std::string>{"glob", "write_file"});  // added to the person's
  CHECK(config->mcpExcluded == std::vector<std::string>{"a", "b"});
  CHECK(config->context.toolOutputChars == 5000);
  CHECK(config->shell.maxOutputChars == keptCharsOf(5000));
  CHECK(config->shell.sandbox);
  CHECK_FALSE(config->shell.sandboxNetwork);
  CHECK(config->approvalMode == ApprovalMode::plan);
}

TEST_CASE("workspace settings: generation settings tune the workspace's sessions, entry by entry over the person's") {
  AgentConfig user;
  user.generation["gemini-2.5"].temperature = 0.7;
  user.generation["gemini-3"].topK = 20;
  auto ws = sorted(R"({"model": {"generationConfig": {"gemini-2.5": {"temperature": 0.2, "thinkingBudget": 512}}}})");
  CHECK(ws.wideningKeys.empty());
  CHECK(ws.processKeys.empty());
  auto config = sessionConfigFor(user, ws, false);
  REQUIRE(config);
  CHECK(config->generation.at("gemini-2.5").temperature == 0.2);
  CHECK(config->generation.at("gemini-2.5").thinkingBudget == 512);
  CHECK(config->generation.at("gemini-3").topK == 20);
  CHECK(generationFor("gemini-2.5-pro", config->generation).temperature == 0.2);
}

TEST_CASE("workspace settings: tools.core only narrows the person's") {
  AgentConfig user;
  user.coreTools = {"read_file", "glob"};
  CHECK(configFor(R"({"tools": {"core": ["glob", "write_file"]}})", false, user).coreTools ==
        std::vector<std::string>{"glob"});
  // Nothing in common: the person's list stays (empty would mean every tool).
  CHECK(configFor(R"({"tools": {"core": ["write_file"]}})", false, user).coreTools == user.coreTools);
}

TEST_CASE("workspace settings: --settings and the command line still win") {
  AgentConfig user;
  user.model = "from-flag";
  user.overrides.model = true;
  user.approvalMode = ApprovalMode::standard;
  user.overrides.approvalMode = true;
  user.shell.sandbox = true;
  user.overrides.sandbox = true;
  auto last = std::make_shared<Settings>();
  last->compressionThreshold = 0.9;
  user.overrides.lastFile = last;
  auto config = configFor(R"({"model": {"name": "ws-model", "compressionThreshold": 0.3},
                              "general": {"defaultApprovalMode": "yolo"}, "tools": {"sandbox": false}})",
                          true, user);
  CHECK(config.model == "from-flag");
  CHECK(config.approvalMode == ApprovalMode::standard);
  CHECK(config.shell.sandbox);
  CHECK(config.context.compressionThreshold == 0.9);
}

TEST_CASE("workspace settings: the consent text follows the widening values") {
  auto a = sorted(R"({"tools": {"allowed": ["run_shell_command"], "exclude": ["x"]}})");
  auto b = sorted(R"({"tools": {"allowed": ["run_shell_command"], "exclude": ["y"]}})");
  auto c = sorted(R"({"tools": {"allowed": ["run_shell_command", "write_file"]}})");
  CHECK(a.wideningText == b.wideningText);  // narrowing keys do not ask again
  CHECK(a.wideningText != c.wideningText);
}

TEST_CASE("workspace settings: provider, picker and context file names stay the person's") {
  auto ws = sorted(R"({"model": {"provider": "openai", "choices": {"openai": ["x"]}},
                       "context": {"fileName": "settings.json", "discoveryMaxDirs": 7}})");
  CHECK(ws.processKeys == std::vector<std::string>{"model.provider", "model.choices", "context.fileName"});
  CHECK_FALSE(ws.tuning.provider);
  CHECK(ws.tuning.modelChoices.empty());
  CHECK_FALSE(ws.tuning.contextFileNames);  // it would read ~/.gemini/settings.json into the prompt
  AgentConfig user;
  user.memory.fileNames = {"GEMINI.md"};
  auto config = sessionConfigFor(user, ws, true);
  REQUIRE(config);
  CHECK(config->memory.fileNames == std::vector<std::string>{"GEMINI.md"});
  CHECK(config->memory.maxScanDirs == 7);  // a bound on the scan is only tuning
}

TEST_CASE("workspace settings: absent or the person's own or broken") {
  testing::TempDir empty;
  auto none = readWorkspaceSettings(empty.str(), "");
  REQUIRE(none);
  CHECK_FALSE(*none);

  Workspace home(R"({"tools": {"allowed": ["run_shell_command"]}})");
  auto own = readWorkspaceSettings(home.dir.str(), (home.dir.path / ".gemini/settings.json").string());
  REQUIRE(own);
  CHECK_FALSE(*own);  // the person's own file is not a workspace's

  Workspace broken(R"({"model": {"compressionThreshold": 3}})");
  auto read = broken.read();
  REQUIRE_FALSE(read);
  CHECK_THAT(read.error().message, Catch::Contains(".gemini/settings.json.model.compressionThreshold"));

  Workspace badMode(R"({"general": {"defaultApprovalMode": "anything"}})");
  auto mode = badMode.read();
  REQUIRE_FALSE(mode);
  CHECK_THAT(mode.error().message, Catch::Contains(".gemini/settings.json.general.defaultApprovalMode"));

  Workspace notJson("{nope");
  auto garbage = notJson.read();
  REQUIRE_FALSE(garbage);
  CHECK_THAT(garbage.error().message, Catch::Contains(".gemini/settings.json"));
}
