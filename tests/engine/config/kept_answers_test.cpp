// "Always" answers kept beyond the session: written as Gemini CLI policy
// rules (exactly the keys shown), read back at their tier, listed, revoked,
// shared with other stores on the same files, never written over a broken file.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "engine/config/kept_answers_store.h"
#include "engine/config/kept_rules.h"
#include "engine/scheduler/approval_policy.h"
#include "protocol/formats/toml.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::TempDir;

namespace {

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

PolicyRule ruleOf(const KeptAnswer& answer) {
  auto text = keptRuleFor(answer);
  REQUIRE(text);
  auto doc = json::parse(*text);
  json::Document file;
  file.SetObject();
  json::Value rules(rapidjson::kArrayType);
  rules.PushBack(json::Value(*doc, file.GetAllocator()), file.GetAllocator());
  file.AddMember("rule", rules, file.GetAllocator());
  auto toml = formats::writeToml(file);
  REQUIRE(toml);
  auto parsed = parsePolicyFile(*toml, "/kept.toml", PolicyTier::user);
  REQUIRE(parsed);
  REQUIRE(parsed->rules.size() == 1);
  return parsed->rules[0];
}

struct Store {
  TempDir dir;
  PolicyFolders folders;
  std::string root = "/work/my project";
  std::shared_ptr<KeptAnswersStore> store;
  Store() {
    folders.keptDir = (dir.path / "state/policies").string();
    folders.keptEverywhere = (dir.path / "home/.gemini/policies/auto-saved.toml").string();
    store = std::make_shared<KeptAnswersStore>(KeptAnswersStore::filesFor(root, folders));
  }
};

}  // namespace

TEST_CASE("kept answers as rules: exactly the keys shown, in Gemini CLI's auto-saved format") {
  PolicyRule git = ruleOf({Lasting::workspace, "run_shell_command",
                           {{ApprovalKind::command, "git"}, {ApprovalKind::command, "ls"}}, ApprovalMode::standard});
  CHECK(git.toolNames == std::vector<std::string>{"run_shell_command"});
  CHECK(git.commandPrefixes == std::vector<std::vector<std::string>>{{"git"}, {"ls"}});
  CHECK(git.decision == PolicyDecision::allow);
  CHECK(git.priority == 950);
  CHECK(git.modes == std::vector<ApprovalMode>{ApprovalMode::standard, ApprovalMode::autoEdit, ApprovalMode::yolo});
  CHECK(describeRule(git) == "`git`, `ls` (shell commands)");

  PolicyRule edit = ruleOf({Lasting::workspace, "replace", {{ApprovalKind::edit, "/w/my \"notes\".txt"}}, ApprovalMode::plan});
  CHECK(edit.toolNames == std::vector<std::string>{"replace", "write_file"});
  CHECK(edit.modes.size() == 4);  // given in plan mode: every mode
  CHECK(describeRule(edit) == "edits to /w/my \"notes\".txt");
  REQUIRE(edit.argsPattern);
  // It matches exactly that file's calls, by either edit tool.
  CHECK(edit.argsPattern->search(stableArgs(R"({"file_path":"/w/my \"notes\".txt","old_string":"a"})")) == Regex::Match::yes);
  CHECK(edit.argsPattern->search(stableArgs(R"({"file_path":"/w/my \"notes\".txt.bak"})")) == Regex::Match::no);
  CHECK(edit.argsPattern->search(stableArgs(R"({"content":"\"file_path\":\"/w/my \\\"notes\\\".txt\""})")) ==
        Regex::Match::no);

  PolicyRule tool = ruleOf({Lasting::everywhere, "srv__do_it", {mcpToolKey("srv", "do_it")}, ApprovalMode::autoEdit});
  CHECK(tool.mcpName == "srv");
  CHECK(tool.toolNames == std::vector<std::string>{"mcp_srv_do_it"});
  CHECK(tool.modes == std::vector<ApprovalMode>{ApprovalMode::autoEdit, ApprovalMode::yolo});
  CHECK(describeRule(tool) == "`do_it` from MCP server srv (in autoEdit, yolo mode)");
  PolicyRule server = ruleOf({Lasting::workspace, "srv__do_it", {{ApprovalKind::mcpServer, "srv"}}, ApprovalMode::standard});
  CHECK(server.toolNames == std::vector<std::string>{"mcp_srv_*"});
  CHECK(describeRule(server) == "every tool from MCP server srv");
  PolicyRule fetch = ruleOf({Lasting::everywhere, "web_fetch", {{ApprovalKind::tool, "web_fetch"}}, ApprovalMode::standard});
  CHECK(fetch.toolNames == std::vector<std::string>{"web_fetch"});

  // Wider than one answer may hold: never kept.
  CHECK_FALSE(keptRuleFor({Lasting::workspace, "replace", {allEditsKey()}, ApprovalMode::standard}));
  CHECK_FALSE(keptRuleFor({Lasting::workspace, "read_file", {{ApprovalKind::read, "/w/.env"}}, ApprovalMode::standard}));
  CHECK_FALSE(keptRuleFor({Lasting::workspace, "x", {}, ApprovalMode::standard}));
  CHECK(filePathOfPattern("\\x00\"file_path\":\"/w/a\"\\x00") == std::nullopt);  // not escaped as we write it
}

TEST_CASE("kept answers: kept for the workspace or everywhere, read back at their tier, listed, revoked") {
  Store s;
  auto kept = s.store->keep({Lasting::workspace, "run_shell_command", {{ApprovalKind::command, "make"}}, ApprovalMode::standard});
  REQUIRE(kept);
  CHECK(*kept == "Kept: `make` (shell commands) allowed in this workspace from now on. /permissions lists what is "
                 "allowed; /permissions revoke N removes one.");
  REQUIRE(s.store->keep({Lasting::everywhere, "web_fetch", {{ApprovalKind::tool, "web_fetch"}}, ApprovalMode::standard}));
  // The same answer again changes nothing.
  REQUIRE(s.store->keep({Lasting::workspace, "run_shell_command", {{ApprovalKind::command, "make"}}, ApprovalMode::standard}));

  const auto& files = s.store->files();
  CHECK(files.workspace.starts_with(s.folders.keptDir + "/my_project-"));
  std::string text = readAll(files.workspace);
  CHECK(text.starts_with("# \"Always allow\" answers Lathe keeps for the workspace /work/my project,"));
  CHECK(text.find("[[rule]]") == text.rfind("[[rule]]"));  // kept once
  struct stat st {};
  REQUIRE(::stat(files.workspace.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(readAll(files.everywhere).find("toolName = 'web_fetch'") != std::string::npos);

  auto rules = s.store->rules();
  REQUIRE(rules->rules.size() == 2);
  CHECK(rules->rules[0].rank() == 3950);  // this workspace: the workspace tier
  CHECK(rules->rules[1].rank() == 4950);  // every workspace: the user tier
  auto list = s.store->list();
  REQUIRE(list.size() == 2);
  CHECK(list[0].where == Lasting::workspace);

  // Another store on the same files (another session, another process) sees
  // the change at its next look, and its revoke reaches this one.
  KeptAnswersStore other(KeptAnswersStore::filesFor(s.root, s.folders));
  REQUIRE(other.list().size() == 2);
  auto revoked = other.revoke(other.list()[0]);
  REQUIRE(revoked);
  CHECK(*revoked == "Revoked: `make` (shell commands) in this workspace is asked about again.");
  CHECK(s.store->rules()->rules.size() == 1);
  // A listing gone stale is refused, not guessed at.
  auto stale = s.store->revoke(list[0]);
  REQUIRE_FALSE(stale);
  CHECK(stale.error().message.find("the file changed since it was listed") != std::string::npos);
}

TEST_CASE("kept answers: a broken file is left as it is, and a file others may change is not read") {
  Store s;
  const auto& files = s.store->files();
  std::filesystem::create_directories(std::filesystem::path(files.everywhere).parent_path());
  { std::ofstream(files.everywhere) << "[[rule]\nbroken"; }
  auto kept = s.store->keep({Lasting::everywhere, "web_fetch", {{ApprovalKind::tool, "web_fetch"}}, ApprovalMode::standard});
  REQUIRE_FALSE(kept);
  CHECK(kept.error().message.find(files.everywhere + ": it is not valid TOML") == 0);
  CHECK(readAll(files.everywhere) == "[[rule]\nbroken");
  REQUIRE(s.store->problems().size() == 1);
  CHECK(s.store->problems()[0].starts_with(files.everywhere + ":1:"));

  REQUIRE(s.store->keep({Lasting::workspace, "web_fetch", {{ApprovalKind::tool, "web_fetch"}}, ApprovalMode::standard}));
  ::chmod(files.workspace.c_str(), 0666);
  CHECK(s.store->rules()->rules.empty());
  REQUIRE(s.store->problems().size() == 2);
  CHECK(s.store->problems()[0].find("may be changed by others") != std::string::npos);
  CHECK_FALSE(s.store->keep({Lasting::workspace, "glob", {{ApprovalKind::tool, "glob"}}, ApprovalMode::standard}));
}
