// Gemini CLI policy files: the rule format read as Gemini CLI 0.61 reads it,
// problems named by file, line and key (the file left out whole), and the
// folders of each tier.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include "engine/config/policy_folders.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::TempDir;

namespace {

std::string problemOf(const std::string& toml) {
  auto parsed = parsePolicyFile(toml, "/p/bad.toml", PolicyTier::user);
  return parsed ? "" : parsed.error().message;
}

}  // namespace

TEST_CASE("policy files: each key of a rule as Gemini CLI reads it") {
  auto parsed = parsePolicyFile(R"toml(# the person's rules
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git status", "npm 'run test'"]
decision = "allow"
priority = 100
modes = ["default", "auto_edit"]

[[rule]]
mcpName = "google-workspace"
toolName = ["calendar.list", "*"]
decision = "deny"
priority = 999
deny_message = "Not from here."
interactive = false
allow_redirection = true
toolAnnotations = { readOnlyHint = true }

[[rule]]
name = "pushes"
toolName = "run_shell_command"
commandRegex = "git (push|pull)"
decision = "ask_user"
priority = 0
subagent = "helper"
)toml",
                                "/home/me/.gemini/policies/mine.toml", PolicyTier::user);
  REQUIRE(parsed);
  const auto& rules = parsed->rules;
  REQUIRE(rules.size() == 3);
  CHECK(rules[0].toolNames == std::vector<std::string>{"run_shell_command"});
  CHECK(rules[0].commandPrefixes == std::vector<std::vector<std::string>>{{"git", "status"}, {"npm", "run test"}});
  CHECK(rules[0].decision == PolicyDecision::allow);
  CHECK(rules[0].rank() == 4100);
  CHECK(rules[0].modes == std::vector<ApprovalMode>{ApprovalMode::standard, ApprovalMode::autoEdit});
  CHECK(rules[0].origin.line == 2);
  CHECK(rules[0].origin.number == 1);
  CHECK(rules[1].toolNames == std::vector<std::string>{"mcp_google-workspace_calendar.list", "mcp_google-workspace_*"});
  CHECK(rules[1].mcpName == "google-workspace");
  CHECK(rules[1].denyMessage == "Not from here.");
  CHECK(rules[1].interactive == false);
  CHECK(rules[1].allowRedirection);
  CHECK(rules[1].toolAnnotations.at("readOnlyHint") == "true");
  CHECK(rules[1].rank() == 4999);
  CHECK(rules[1].origin.describe() == "rule 2 (line 9) of /home/me/.gemini/policies/mine.toml");
  REQUIRE(rules[2].argsPattern);
  CHECK(rules[2].argsPattern->pattern() == "\"command\":\"git (push|pull)");
  CHECK(rules[2].subagent == "helper");
  CHECK(rules[2].origin.name == "pushes");
  CHECK(rules[2].rank() == 4000);

  // A server's rule without toolName covers all its tools (as the docs write it).
  auto server = parsePolicyFile("[[rule]]\nmcpName = \"untrusted\"\ndecision = \"deny\"\npriority = 500\n", "/p/s.toml",
                                PolicyTier::admin);
  REQUIRE(server);
  CHECK(server->rules[0].toolNames == std::vector<std::string>{"mcp_untrusted_*"});
  CHECK(server->rules[0].rank() == 5500);
  CHECK(parsePolicyFile("", "/p/empty.toml", PolicyTier::user)->rules.empty());
}

TEST_CASE("policy files: a problem names the file, the line and the key, and leaves the file out") {
  const std::pair<const char*, const char*> rows[] = {
      {"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\n", "/p/bad.toml:1: rule[0].priority: required integer is missing"},
      {"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1000\n",
       "/p/bad.toml:4: rule[0].priority: must be from 0 to 999 (a higher one would reach into the next tier)"},
      {"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1.5\n",
       "/p/bad.toml:4: rule[0].priority: expected an integer"},
      {"[[rule]]\ntoolName = \"x\"\ndecision = \"maybe\"\npriority = 1\n",
       "/p/bad.toml:3: rule[0].decision: \"maybe\" is not allow, deny or ask_user"},
      {"[[rule]]\ntoolName = \"run_shell_command\"\ncommandprefix = \"git\"\ndecision = \"allow\"\npriority = 1\n",
       "/p/bad.toml:3: rule[0].commandprefix: not a policy rule key"},
      {"[[rule]]\ntoolName = \"read_file\"\ncommandPrefix = \"git\"\ndecision = \"allow\"\npriority = 1\n",
       "/p/bad.toml:2: rule[0].toolName: commandPrefix and commandRegex need toolName = \"run_shell_command\" (one name)"},
      {"[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\nargsPattern = \"x\"\ndecision = \"allow\"\npriority = 1\n",
       "/p/bad.toml:4: rule[0].argsPattern: cannot be combined with commandPrefix or commandRegex"},
      {"[[rule]]\ntoolName = \"x\"\nargsPattern = \"(a+)+\"\ndecision = \"deny\"\npriority = 1\n",
       "/p/bad.toml:3: rule[0].argsPattern: the pattern could take very long to match (nested quantifiers, or over 2048 "
       "characters), so it is refused"},
      {"[[rule]]\ntoolName = \"x\"\nargsPattern = \"(unclosed\"\ndecision = \"deny\"\npriority = 1\n",
       "/p/bad.toml:3: rule[0].argsPattern: invalid regular expression \"(unclosed\": missing closing parenthesis at offset 9"},
      {"[[rule]]\ntoolName = \"\"\ndecision = \"deny\"\npriority = 1\n",
       "/p/bad.toml:2: rule[0].toolName: an empty name names no tool (\"*\" for every tool)"},
      {"[[rule]]\ndecision = \"deny\"\npriority = 1\n", "/p/bad.toml:1: rule[0].toolName: required (\"*\" for every tool)"},
      {"[[rule]]\ntoolName = \"x\"\ndecision = \"deny\"\npriority = 1\nmodes = [\"fast\"]\n",
       "/p/bad.toml:5: rule[0].modes: \"fast\" is not default, autoEdit, yolo or plan"},
      {"[rules]\ntoolName = \"x\"\n", "/p/bad.toml:1: rules: not a policy file key (rule, safety_checker)"},
      {"[[rule]]\ntoolName = \"x\"\ndecision = \"deny\"\npriority = 1\n[[safety_checker]]\ntoolName = \"*\"\n",
       "/p/bad.toml:5: safety_checker: Lathe does not run safety checkers, so this file is left out (move its [[rule]] "
       "tables to a file of their own)"},
      {"[[rule]]\ntoolName = \"x\ndecision = \"deny\"\n", "/p/bad.toml:2:"},  // broken TOML: the parser's words
  };
  for (const auto& [toml, problem] : rows) {
    INFO(toml);
    CHECK(problemOf(toml).starts_with(problem));
    CHECK_FALSE(problemOf(toml).empty());
  }
}

TEST_CASE("policy folders: tiers, files left out whole, extensions that may not allow") {
  TempDir home;
  home.write(".gemini/policies/a.toml", "[[rule]]\ntoolName = \"glob\"\ndecision = \"allow\"\npriority = 5\n");
  home.write(".gemini/policies/b.toml", "[[rule]]\ntoolName = \"glob\"\ndecision = \"allow\"\npriority = oops\n");
  home.write(".gemini/policies/notes.txt", "not a policy");
  home.write(".gemini/policies/auto-saved.toml", "[[rule]]\ntoolName = \"grep_search\"\ndecision = \"allow\"\npriority = 950\n");
  home.write("ext/policies/p.toml",
             "[[rule]]\ntoolName = \"glob\"\ndecision = \"allow\"\npriority = 1\n"
             "[[rule]]\ntoolName = \"glob\"\ndecision = \"deny\"\npriority = 1\nmodes = [\"yolo\"]\n"
             "[[rule]]\ntoolName = \"web_fetch\"\ndecision = \"ask_user\"\npriority = 1\n");
  PolicyFolders folders;
  folders.user = (home.path / ".gemini/policies").string();
  folders.keptEverywhere = folders.user + "/auto-saved.toml";
  folders.system = (home.path / "no-such-system-folder").string();
  addExtensionPolicies(folders, "tidy", (home.path / "ext/policies").string());
  LoadedPolicies loaded = readPersonalPolicies(folders);
  REQUIRE(loaded.rules.rules.size() == 2);
  CHECK(loaded.rules.rules[0].origin.file == folders.user + "/a.toml");
  CHECK(loaded.rules.rules[0].origin.tier == PolicyTier::user);
  CHECK(loaded.rules.rules[1].toolNames == std::vector<std::string>{"web_fetch"});
  CHECK(loaded.rules.rules[1].origin.tier == PolicyTier::extension);
  CHECK(loaded.rules.rules[1].origin.owner == "tidy");
  REQUIRE(loaded.problems.size() == 2);
  CHECK(loaded.problems[0].starts_with(folders.user + "/b.toml:4:"));
  CHECK(loaded.rules.unread == std::vector<std::string>{folders.user + "/b.toml"});
  CHECK(loaded.problems[1] == "Extension tidy: 2 policy rules were ignored: an extension's rules may not allow anything "
                              "to run unasked or apply in yolo mode.");

  // policyPaths replaces the user folder; adminPolicyPaths adds to the admin tier.
  folders.userPaths = {(home.path / ".gemini/policies/a.toml").string()};
  folders.adminPaths = {(home.path / "ext/policies/p.toml").string()};
  folders.extensions.clear();
  loaded = readPersonalPolicies(folders);
  CHECK(loaded.problems.empty());
  CHECK(loaded.rules.unread.empty());
  REQUIRE(loaded.rules.rules.size() == 4);
  CHECK(loaded.rules.rules[0].origin.tier == PolicyTier::admin);
  CHECK(loaded.rules.rules[3].origin.tier == PolicyTier::user);

  // A system folder others than root may change is left out, and said so.
  folders.system = (home.path / "ext/policies").string();
  ::chmod(folders.system.c_str(), 0777);
  loaded = readPersonalPolicies(folders);
  REQUIRE_FALSE(loaded.problems.empty());
  CHECK(loaded.problems[0].starts_with("The administrator's policies were left out: " + folders.system + " "));
  CHECK(loaded.rules.rules.size() == 1);  // the user's only
  CHECK(loaded.rules.unread == std::vector<std::string>{folders.system});

  // The person's files that anyone may change are left out.
  ::chmod((home.path / ".gemini/policies/a.toml").c_str(), 0666);
  folders.system = "/nonexistent";
  folders.adminPaths.clear();
  loaded = readPersonalPolicies(folders);
  CHECK(loaded.rules.rules.empty());
  REQUIRE(loaded.problems.size() == 1);
  CHECK(loaded.problems[0].find("may be changed by anyone") != std::string::npos);
  CHECK(loaded.rules.unread == folders.userPaths);
}

TEST_CASE("workspace policies: refusals and questions at once, allow rules for the consent") {
  TempDir ws;
  ws.write(".gemini/policies/team.toml",
           "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git push\"\ndecision = \"ask_user\"\npriority = 1\n"
           "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"make\"\ndecision = \"allow\"\npriority = 1\n"
           "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"rm\"\ndecision = \"deny\"\npriority = 1\n");
  PolicyFolders folders;
  WorkspacePolicies read = readWorkspacePolicies(ws.str(), folders);
  CHECK(read.problems.empty());
  REQUIRE(read.now.rules.size() == 2);
  CHECK(read.now.rules[0].origin.tier == PolicyTier::workspace);
  REQUIRE(read.widening.rules.size() == 1);
  CHECK(read.widening.rules[0].commandPrefixes == std::vector<std::vector<std::string>>{{"make"}});
  CHECK(read.wideningText.find("\"file\":\"" + ws.str() + "/.gemini/policies/team.toml\"") != std::string::npos);
  CHECK(read.wideningText.find("\"commandPrefix\":\"make\"") != std::string::npos);
  // A workspace at the home folder has the person's own folder, not a workspace's.
  folders.user = ws.str() + "/.gemini/policies";
  CHECK(readWorkspacePolicies(ws.str(), folders).now.rules.empty());
}
