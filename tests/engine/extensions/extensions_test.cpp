// Extensions as Gemini CLI 0.61 loads them: the manifest with its variables
// and its .env's values, context files confined to the folder, servers
// without trust, hooks and skills hydrated, links followed, bad folders
// named; the per-folder enablement rules; the .env format.
#include <catch2/catch.hpp>

#include <filesystem>

#include "engine/extensions/extension_enablement.h"
#include "engine/extensions/extension_loader.h"
#include "engine/extensions/extension_store.h"
#include "engine/extensions/extension_variables.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::TempDir;

namespace {

EnvLookup noEnv() {
  return [](const std::string& name) -> std::optional<std::string> {
    if (name == "FROM_ENV") return std::string("env-value");
    return std::nullopt;
  };
}

}  // namespace

TEST_CASE("extension variables: ${…} hydrated, $VAR from the .env then the environment, .env lines") {
  Variables vars{{"extensionPath", "/x"}, {"/", "/"}};
  CHECK(hydrate("${extensionPath}${/}run.js ${unknown} $extensionPath", vars) == "/x/run.js ${unknown} $extensionPath");
  Lookup lookup = [](const std::string& name) -> std::optional<std::string> {
    if (name == "A") return std::string("1");
    return std::nullopt;
  };
  CHECK(resolveEnv("$A-${A}-${B:-two}-$B-${B}-$-$", lookup) == "1-1-two-$B-${B}-$-$");
  auto env = parseDotenv("# comment\nexport KEY=value\nQUOTED=\"a b\\nc\"\nSINGLE='x # y'\nINLINE=v # note\nKEY=again\nbad line\n");
  REQUIRE(env.size() == 4);
  CHECK(env[0] == std::pair<std::string, std::string>{"KEY", "again"});
  CHECK(env[1].second == "a b\nc");
  CHECK(env[2].second == "x # y");
  CHECK(env[3].second == "v");
}

TEST_CASE("extension enablement: the last matching rule wins, and enabling below a folder replaces what it covers") {
  CHECK(ExtensionEnablement::enabledIn({}, "/any"));
  CHECK_FALSE(ExtensionEnablement::enabledIn({"!/home/me/*"}, "/home/me/project"));
  CHECK_FALSE(ExtensionEnablement::enabledIn({"!/home/me/*"}, "/home/me"));
  CHECK(ExtensionEnablement::enabledIn({"!/home/me/*"}, "/work/project"));  // outside home: as Gemini CLI has it
  CHECK(ExtensionEnablement::enabledIn({"!/home/me/*", "/home/me/project/"}, "/home/me/project"));
  CHECK_FALSE(ExtensionEnablement::enabledIn({"!/home/me/*", "/home/me/project/"}, "/home/me/project/sub"));
  CHECK(ExtensionEnablement::enabledIn({"!/a.b/*"}, "/aXb/c"));  // dots are literal

  TempDir dir;
  ExtensionEnablement file((dir.path / "extension-enablement.json").string());
  REQUIRE(file.disable("ext", "/home/me/project"));
  REQUIRE(file.enable("ext", "/home/me/project/sub"));
  REQUIRE(file.enable("ext", "/home/me"));  // covers both rules below it: they go
  auto rules = file.read();
  REQUIRE(rules);
  CHECK(rules->at("ext") == std::vector<std::string>{"/home/me/*"});
  REQUIRE(file.disable("ext", "/home/me"));
  CHECK(file.read()->at("ext") == std::vector<std::string>{"!/home/me/*"});
  CHECK_FALSE(file.isEnabled("ext", "/home/me/x"));
  CHECK(file.isEnabled("other", "/home/me/x"));
  REQUIRE(file.remove("ext"));
  CHECK(file.read()->empty());
  dir.write("broken.json", "{\"x\": {\"overrides\": 3}}");
  auto broken = ExtensionEnablement((dir.path / "broken.json").string()).read();
  REQUIRE_FALSE(broken);
  CHECK_THAT(broken.error().message, Catch::Contains("broken.json") && Catch::Contains("overrides"));
}

TEST_CASE("extensions: the manifest with its variables, servers without trust, context files confined, hooks and skills") {
  TempDir home, ws;
  const std::string ext = home.str() + "/.gemini/extensions/tools";
  home.write(".gemini/extensions/tools/gemini-extension.json", R"J({
    "name": "tools", "version": "2.0.0", "description": "Tools for $FROM_ENV",
    "mcpServers": {"srv": {"command": "node", "args": ["${extensionPath}${/}srv.js", "${workspacePath}", "$API_HOST"],
                           "env": {"TOKEN": "${MY_TOKEN}"}, "trust": true}},
    "contextFileName": ["CONTEXT.md", "../escape.md", "/etc/passwd", "missing.md"],
    "excludeTools": ["run_shell_command(rm)"],
    "settings": [{"name": "Token", "envVar": "MY_TOKEN", "sensitive": true}, {"name": "Host", "envVar": "API_HOST"},
                 {"name": "Preload", "envVar": "LD_PRELOAD"}]
  })J");
  home.write(".gemini/extensions/tools/.env", "MY_TOKEN=t0k\nAPI_HOST=example.test\nLD_PRELOAD=/evil.so\n");
  home.write(".gemini/extensions/tools/CONTEXT.md", "be brief");
  home.write(".gemini/extensions/tools/hooks/hooks.json",
             R"J({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "${extensionPath}/check.sh"}]}]}})J");
  home.write(".gemini/extensions/tools/skills/audit/SKILL.md", "---\nname: audit\ndescription: Audits\n---\nRun ${extensionPath}/audit.sh");
  home.write(".gemini/extensions/tools/policies/rules.toml", "");
  home.write(".gemini/extensions/nomanifest/README.md", "x");
  home.write(".gemini/extensions/badname/gemini-extension.json", R"J({"name": "bad_name", "version": "1"})J");
  home.write(".gemini/extensions/noversion/gemini-extension.json", R"J({"name": "noversion"})J");
  home.write(".gemini/extensions/extension-enablement.json", "{}");

  auto scan = loadExtensions(home.str() + "/.gemini", ws.str(), noEnv());
  REQUIRE(scan.extensions.size() == 1);
  const Extension& e = scan.extensions[0];
  CHECK(e.name == "tools");
  CHECK(e.description == "Tools for env-value");
  CHECK(e.enabled);
  REQUIRE(e.mcpServers.size() == 1);
  CHECK_FALSE(e.mcpServers[0].trust);
  const auto& stdio = std::get<tools::mcp::StdioTransport>(e.mcpServers[0].transport);
  CHECK(stdio.args == std::vector<std::string>{ext + "/srv.js", ws.str(), "example.test"});
  auto envOf = [&](const std::string& name) {
    for (const auto& [key, value] : stdio.env) {
      if (key == name) return value;
    }
    return std::string("(unset)");
  };
  CHECK(envOf("TOKEN") == "t0k");
  CHECK(envOf("API_HOST") == "example.test");  // a declared setting reaches its servers
  CHECK(envOf("LD_PRELOAD") == "(unset)");     // but never one that changes how programs load
  CHECK(e.contextFiles == std::vector<std::string>{ext + "/CONTEXT.md"});
  CHECK(e.excludeTools == std::vector<std::string>{"run_shell_command(rm)"});
  CHECK_THAT(e.hooksJson, Catch::Contains(ext + "/check.sh") && Catch::Contains("\"MY_TOKEN\":\"t0k\""));
  REQUIRE(e.skills.size() == 1);
  CHECK(e.skills[0].body == "Run " + ext + "/audit.sh");
  CHECK(e.skills[0].extension == "tools");
  CHECK(e.policiesDir == ext + "/policies");
  std::string problems;
  for (const auto& p : scan.problems) problems += p + "\n";
  CHECK_THAT(problems, Catch::Contains("nomanifest: not an extension: there is no gemini-extension.json"));
  CHECK_THAT(problems, Catch::Contains("\"bad_name\" is not an extension name"));
  CHECK_THAT(problems, Catch::Contains("noversion/gemini-extension.json.version: required string is missing"));
  CHECK_THAT(problems, Catch::Contains("\"../escape.md\" not used") && Catch::Contains("\"/etc/passwd\" not used"));
  CHECK(problems.find("missing.md") == std::string::npos);  // absent files are quietly left out, as in Gemini CLI
}

TEST_CASE("extensions: links followed, disabled for a workspace, filtered by the person's settings") {
  TempDir home, ws, source;
  source.write("gemini-extension.json", R"J({"name": "linked", "version": "1.0.0"})J");
  home.write(".gemini/extensions/linked/.gemini-extension-install.json",
             "{\"source\": \"" + source.str() + "\", \"type\": \"link\"}");
  home.write(".gemini/extensions/fromgit/gemini-extension.json", R"J({"name": "fromgit", "version": "1.0.0"})J");
  home.write(".gemini/extensions/fromgit/.gemini-extension-install.json",
             R"J({"source": "https://example.test/fromgit.git", "type": "git"})J");
  home.write(".gemini/extensions/extension-enablement.json",
             "{\"linked\": {\"overrides\": [\"!" + ws.str() + "/*\"]}}");
  auto scan = loadExtensions(home.str() + "/.gemini", ws.str(), noEnv());
  REQUIRE(scan.extensions.size() == 2);
  CHECK(scan.extensions[1].name == "linked");
  CHECK(scan.extensions[1].path == source.str());
  CHECK_FALSE(scan.extensions[1].enabled);
  CHECK(scan.extensions[0].enabled);

  auto blocked = loadExtensions(home.str() + "/.gemini", ws.str(), noEnv(), ExtensionFilter{true, {}});
  REQUIRE(blocked.extensions.size() == 1);
  CHECK_THAT(blocked.problems.at(0), Catch::Contains("fromgit: not loaded") && Catch::Contains("blockGitExtensions"));
  auto allowed = loadExtensions(home.str() + "/.gemini", ws.str(), noEnv(), ExtensionFilter{false, {"example\\.test"}});
  REQUIRE(allowed.extensions.size() == 1);
  CHECK(allowed.extensions[0].name == "fromgit");
}

TEST_CASE("extension store: install copies and enables for the person, refuses without consent, uninstall forgets") {
  TempDir home, ws, source;
  source.write("gemini-extension.json", R"J({"name": "copied", "version": "1.0.0", "mcpServers": {"s": {"command": "run-me"}}})J");
  source.write("commands/x.toml", "prompt = \"x\"");
  ExtensionStore store(home.str() + "/.gemini", home.str(), noEnv());
  std::string shown;
  auto refused = store.install(source.str(), std::nullopt, false, ws.str(), [&](const std::string& text) {
    shown = text;
    return false;
  });
  REQUIRE_FALSE(refused);
  CHECK_THAT(shown, Catch::Contains("\"copied\" (1.0.0)") && Catch::Contains("s (local): run-me"));
  CHECK_FALSE(std::filesystem::exists(home.path / ".gemini/extensions/copied"));
  auto installed = store.install(source.str(), std::nullopt, false, ws.str(), [](const std::string&) { return true; });
  REQUIRE(installed);
  CHECK(installed->path == home.str() + "/.gemini/extensions/copied");
  CHECK(installed->install->type == "local");
  CHECK(std::filesystem::exists(home.path / ".gemini/extensions/copied/commands/x.toml"));
  CHECK(ExtensionEnablement(home.str() + "/.gemini/extensions/extension-enablement.json").read()->at("copied") ==
        std::vector<std::string>{home.str() + "/*"});
  CHECK_FALSE(store.install(source.str(), std::nullopt, false, ws.str(), nullptr));  // installed already
  CHECK_FALSE(store.install("https://example.test/x.git", std::nullopt, true, ws.str(), nullptr));  // links are folders
  REQUIRE(store.setEnabled("copied", ws.str(), false));
  CHECK_FALSE(store.list(ws.str()).extensions.at(0).enabled);
  CHECK_FALSE(store.setEnabled("missing", ws.str(), false));
  REQUIRE(store.uninstall("COPIED"));
  CHECK_FALSE(std::filesystem::exists(home.path / ".gemini/extensions/copied"));
  CHECK(ExtensionEnablement(home.str() + "/.gemini/extensions/extension-enablement.json").read()->empty());
  CHECK(std::filesystem::exists(source.path / "gemini-extension.json"));
}
