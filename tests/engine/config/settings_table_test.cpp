// The settings table: README.md lists the same keys with the same scope,
// merge rule and time; every row is complete; the consent text keeps the
// exact form remembered consents were given to; the process config takes
// every key and a session only its per-session ones; a workspace's keys are
// sorted as their rows say.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "engine/config/settings_table.h"
#include "engine/config/workspace_settings.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;

namespace {

std::string trimmed(const std::string& text) {
  size_t begin = text.find_first_not_of(' ');
  size_t end = text.find_last_not_of(' ');
  return begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
}

// The rows of README's "## Settings" table: key, scope, merge, applies.
std::vector<std::string> readmeRows() {
  std::ifstream in(std::string(LATHE_SOURCE_DIR) + "/README.md");
  REQUIRE(in);
  std::vector<std::string> rows;
  bool inSection = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) inSection = line == "## Settings";
    if (!inSection || line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream split(line.substr(1));
    for (std::string cell; std::getline(split, cell, '|');) cells.push_back(trimmed(cell));
    REQUIRE(cells.size() >= 4);
    std::string key = cells[0].substr(1, cells[0].size() - 2);  // without the backticks
    rows.push_back(key + " | " + cells[1] + " | " + cells[2] + " | " + cells[3]);
  }
  return rows;
}

std::vector<std::string> tableRows() {
  std::vector<std::string> rows;
  for (const SettingKey& row : settingsTable()) {
    rows.push_back(std::string(row.name) + " | " + std::string(toString(row.scope)) + " | " +
                   std::string(toString(row.merge)) + " | " + std::string(toString(row.applies)));
  }
  return rows;
}

}  // namespace

TEST_CASE("settings table: README's settings list is the table") {
  auto readme = readmeRows();
  auto table = tableRows();
  CHECK(readme.size() > 20);
  for (const auto& row : table) {
    INFO("in the table, not in README.md (or with another scope, merge or time): " << row);
    CHECK(std::find(readme.begin(), readme.end(), row) != readme.end());
  }
  for (const auto& row : readme) {
    INFO("in README.md, not in the table (or with another scope, merge or time): " << row);
    CHECK(std::find(table.begin(), table.end(), row) != table.end());
  }
  CHECK(readme == table);  // and in the same order
}

TEST_CASE("settings table: every row is complete") {
  std::set<std::string_view> names;
  for (const SettingKey& row : settingsTable()) {
    INFO(row.name);
    CHECK(names.insert(row.name).second);
    CHECK(findSetting(row.name) == &row);
    CHECK_FALSE(row.doc.empty());
    CHECK(row.isSet);
    CHECK(row.take);
    CHECK((row.scope == KeyScope::widening) == (row.consentText != nullptr));
    if (row.applies == SettingApplies::perSession) {
      CHECK(row.apply);  // a session cannot leave it to server/
      CHECK(row.read);
    }
    if (!row.apply) CHECK(row.scope == KeyScope::personal);  // server/ applies those
    if (row.toldInWorkspace) CHECK(row.readInWorkspace);
    if (row.scope == KeyScope::tuning || row.scope == KeyScope::widening) CHECK(row.readInWorkspace);
  }
  CHECK(findSetting("tools.nothing") == nullptr);
}

TEST_CASE("settings table: the consent text keeps its form") {
  // Remembered consents are to this exact text: the rows must not reorder it.
  Settings all;
  all.sandboxNetwork = true;
  all.sandbox = false;
  all.mcpAllowed = std::vector<std::string>{"srv"};
  all.approvalMode = "yolo";
  all.allowedTools = std::vector<std::string>{"run_shell_command(git)"};
  auto sorted = classifyWorkspaceSettings("/w/.gemini/settings.json", all);
  REQUIRE(sorted);
  CHECK(sorted->wideningText ==
        R"x({"tools.allowed":["run_shell_command(git)"],"general.defaultApprovalMode":"yolo","mcp.allowed":["srv"],)x"
        R"x("tools.sandbox":false,"tools.sandboxNetwork":true})x");
  CHECK(sorted->wideningKeys == std::vector<std::string>{"tools.allowed", "general.defaultApprovalMode", "mcp.allowed",
                                                         "tools.sandbox", "tools.sandboxNetwork"});
}

TEST_CASE("settings table: allowed widening keys say when they apply") {
  CHECK(laterWideningNotice({"tools.allowed", "general.defaultApprovalMode", "mcp.allowed"}).empty());
  auto later = laterWideningNotice({"tools.allowed", "tools.sandbox", "tools.sandboxNetwork"});
  CHECK_THAT(later, Catch::StartsWith("tools.sandbox, tools.sandboxNetwork apply from the next session"));
}

TEST_CASE("settings table: the process takes every key, a session its per-session ones") {
  Settings settings;
  settings.contextFileNames = std::vector<std::string>{"AGENTS.md"};
  settings.webFetchAllowPrivateHosts = std::vector<std::string>{"localhost"};
  settings.generation["gemini-2.5"].temperature = 0.5;
  settings.programs.discoveryCommand = "discover";
  settings.excludeTools = std::vector<std::string>{"glob"};
  settings.approvalMode = "autoEdit";

  AgentConfig process;
  REQUIRE(applySettings(process, settings, SettingApplies::processStart));
  CHECK(process.memory.fileNames == std::vector<std::string>{"AGENTS.md"});
  CHECK(process.webFetch.allowPrivateHosts == std::vector<std::string>{"localhost"});
  CHECK(process.generation.at("gemini-2.5").temperature == 0.5);
  CHECK(process.programs.discoveryCommand == "discover");
  CHECK(process.excludeTools == std::vector<std::string>{"glob"});
  CHECK(process.approvalMode == ApprovalMode::autoEdit);

  AgentConfig session;
  session.memory.fileNames = {"GEMINI.md"};
  REQUIRE(applySettings(session, settings, SettingApplies::perSession));
  CHECK(session.memory.fileNames == std::vector<std::string>{"GEMINI.md"});
  CHECK(session.webFetch.allowPrivateHosts.empty());
  CHECK(session.generation.at("gemini-2.5").temperature == 0.5);  // tuning, per session
  CHECK_FALSE(session.programs.discoveryCommand);
  CHECK(session.excludeTools == std::vector<std::string>{"glob"});
  CHECK(session.approvalMode == ApprovalMode::autoEdit);

  AgentConfig pinned;
  pinned.overrides.approvalMode = true;  // --approval-mode
  REQUIRE(applySettings(pinned, settings, SettingApplies::processStart));
  CHECK(pinned.approvalMode == ApprovalMode::standard);

  settings.approvalMode = "sometimes";
  auto bad = applySettings(process, settings, SettingApplies::processStart);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().message,
             Catch::Contains("unknown approval mode \"sometimes\" (default, autoEdit, yolo, plan)"));
}

TEST_CASE("settings table: a workspace's keys are sorted by their rows") {
  // Every key a workspace's file is read for, each with a value that widens.
  testing::TempDir dir;
  std::filesystem::create_directories(dir.path / ".gemini");
  std::ofstream(dir.path / ".gemini/settings.json") << R"({
      "model": {"name": "m", "provider": "openai", "choices": {"openai": ["m"]}, "contextLimits": {"m": 10},
                "generationConfig": {"m": {"temperature": 1}}, "compressionThreshold": 0.4,
                "disableLoopDetection": true, "summarizeToolOutput": {"glob": true},
                "pricing": {"m": {"input": 1, "output": 2}}},
      "tools": {"core": ["glob"], "exclude": ["x"], "allowed": ["glob"], "sandbox": false, "sandboxNetwork": true,
                "truncateToolOutputThreshold": 2000, "webFetch": {"allowPrivateHosts": ["localhost"]},
                "discoveryCommand": "d", "callCommand": "c"},
      "general": {"defaultApprovalMode": "yolo"},
      "mcp": {"allowed": ["s"], "excluded": ["t"]},
      "context": {"fileName": "A.md", "discoveryMaxDirs": 3},
      "experimental": {"enableAgents": false}, "agents": {"overrides": {"generalist": {"enabled": false}}},
      "skills": {"enabled": false, "disabled": ["review"]},
      "proxy": "http://127.0.0.1:1", "security": {"auth": {"selectedType": "gemini-api-key"},
                                                  "blockGitExtensions": true, "allowedExtensions": ["x"]},
      "policyPaths": ["p"], "adminPolicyPaths": ["/a"],
      "mcpServers": {"s": {"command": "true"}},
      "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}]},
      "hooksConfig": {"enabled": false, "disabled": ["x"], "notifications": false}})";
  Settings all;
  REQUIRE(mergeSettingsFile((dir.path / ".gemini/settings.json").string(), all, SettingsScope::workspace));
  auto sorted = classifyWorkspaceSettings("ws", all);
  REQUIRE(sorted);
  for (const SettingKey& row : settingsTable()) {
    INFO(row.name);
    CHECK(row.isSet(all) == row.readInWorkspace);  // read exactly when the row says so
    const bool widening = std::find(sorted->wideningKeys.begin(), sorted->wideningKeys.end(), row.name) !=
                          sorted->wideningKeys.end();
    const bool told = std::find(sorted->processKeys.begin(), sorted->processKeys.end(), row.name) !=
                      sorted->processKeys.end();
    CHECK(widening == (row.scope == KeyScope::widening));
    CHECK(row.isSet(sorted->widening) == widening);
    CHECK(told == row.toldInWorkspace);
    CHECK(row.isSet(sorted->tuning) == (row.scope == KeyScope::tuning));
  }
}

TEST_CASE("settings table: model.pricing reads prices per model and names a bad one") {
  testing::TempDir dir;
  const auto path = dir.path / "settings.json";
  std::ofstream(path) << R"({"model": {"pricing": {"gemini-2.5-pro": {"input": 1, "output": 8.5, "cachedInput": 0.1},
                                                 "local": {"input": 0, "output": 0}}}})";
  Settings settings;
  REQUIRE(mergeSettingsFile(path.string(), settings));
  AgentConfig config;
  REQUIRE(applySettings(config, settings, SettingApplies::processStart));
  CHECK(config.pricing.at("gemini-2.5-pro").output == 8.5);
  CHECK(config.pricing.at("gemini-2.5-pro").cachedInput == 0.1);
  CHECK_FALSE(config.pricing.at("local").cachedInput);
  std::ofstream(path) << R"({"model": {"pricing": {"m": {"input": -1, "output": 1}}}})";
  Settings bad;
  auto refused = mergeSettingsFile(path.string(), bad);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("model.pricing.m.input"));
  CHECK_THAT(refused.error().message, Catch::Contains("US dollars per million tokens"));
  std::ofstream(path) << R"({"model": {"pricing": {"m": 3}}})";
  Settings notObject;
  CHECK_THAT(mergeSettingsFile(path.string(), notObject).error().message, Catch::Contains("model.pricing.m"));
}
