// The approval decision table, call states, permission options, settings files.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "engine/scheduler/approval_policy.h"
#include "engine/scheduler/call_state.h"
#include "engine/scheduler/permission_options.h"
#include "engine/config/settings.h"

using namespace lathe;
using namespace lathe::engine;
using tools::Kind;

namespace {

tools::ConfirmationDetails editOf(const std::string& path) {
  return tools::EditConfirmation{"Edit", tools::FileDiff{path, std::string("a"), "b"}, {}};
}
// A command line running one command per root name (each just its name).
tools::ConfirmationDetails execOf(std::vector<std::string> roots, bool readOnly = false) {
  std::vector<std::vector<std::string>> commands;
  for (const auto& root : roots) commands.push_back({root});
  return tools::ExecConfirmation{"cmd", std::move(roots), std::move(commands), {}, readOnly, true, true, {}, {}};
}
tools::ConfirmationDetails execWords(std::vector<std::vector<std::string>> commands) {
  std::vector<std::string> roots;
  for (const auto& words : commands) roots.push_back(words.front());
  return tools::ExecConfirmation{"cmd", std::move(roots), std::move(commands), {}, false, true, true, {}, {}};
}
tools::ConfirmationDetails mcpOf() { return tools::McpConfirmation{"srv", "do_it"}; }
tools::ConfirmationDetails infoOf() { return tools::InfoConfirmation{"fetch it", {"https://example.com"}}; }

const char* name(Decision d) {
  return d == Decision::allow ? "allow" : d == Decision::allowSealed ? "sealed" : d == Decision::ask ? "ask" : "deny";
}

}  // namespace

TEST_CASE("approval table: mode x kind x confirmation, with the words of the rule that decided") {
  auto edit = editOf("/w/a.txt");
  auto exec = execOf({"ls"});
  auto mcp = mcpOf();
  auto info = infoOf();
  // What the person sees when plan mode refuses; the model reads kPlanForModel.
  const std::string kPlan = "Not run: plan mode allows only read-only tools.";
  const std::string kPlanForModel =
      "Refused: the session is in plan mode, which allows only read-only tools. Describe the change instead of "
      "making it.";
  struct Row {
    ApprovalMode mode;
    Kind kind;
    const tools::ConfirmationDetails* details;
    Decision expected;
    std::string forPerson;  // allow and a plain ask say nothing
  };
  const Row rows[] = {
      // Tools that need no confirmation run in every mode but plan refuses mutators.
      {ApprovalMode::standard, Kind::read, nullptr, Decision::allow, ""},
      {ApprovalMode::plan, Kind::read, nullptr, Decision::allow, ""},
      {ApprovalMode::plan, Kind::search, nullptr, Decision::allow, ""},
      {ApprovalMode::plan, Kind::edit, nullptr, Decision::deny, kPlan},
      // A think tool (write_todos) changes nothing outside the session: plan mode runs it.
      {ApprovalMode::plan, Kind::think, nullptr, Decision::allow, ""},
      {ApprovalMode::standard, Kind::think, nullptr, Decision::allow, ""},
      // A sub-agent runs in the session's mode itself: plan mode starts it, and it only reads.
      {ApprovalMode::plan, Kind::agent, nullptr, Decision::allow, ""},
      // Asking the person (ask_user) changes nothing either: plan mode asks too.
      {ApprovalMode::plan, Kind::communicate, nullptr, Decision::allow, ""},
      {ApprovalMode::plan, Kind::edit, &edit, Decision::deny, kPlan},
      {ApprovalMode::plan, Kind::execute, &exec, Decision::deny, kPlan},
      {ApprovalMode::plan, Kind::fetch, &info, Decision::ask, ""},
      {ApprovalMode::standard, Kind::edit, &edit, Decision::ask, ""},
      {ApprovalMode::standard, Kind::execute, &exec, Decision::ask, ""},
      {ApprovalMode::standard, Kind::other, &mcp, Decision::ask, ""},
      {ApprovalMode::standard, Kind::fetch, &info, Decision::ask, ""},
      {ApprovalMode::autoEdit, Kind::edit, &edit, Decision::allow, ""},
      {ApprovalMode::autoEdit, Kind::execute, &exec, Decision::ask, ""},
      {ApprovalMode::autoEdit, Kind::other, &mcp, Decision::ask, ""},
      {ApprovalMode::autoEdit, Kind::fetch, &info, Decision::ask, ""},
      {ApprovalMode::yolo, Kind::edit, &edit, Decision::allow, ""},
      {ApprovalMode::yolo, Kind::execute, &exec, Decision::allow, ""},
      {ApprovalMode::yolo, Kind::other, &mcp, Decision::allow, ""},
  };
  SessionApprovals none;
  for (const auto& row : rows) {
    INFO("mode " << toString(row.mode) << " kind " << tools::toString(row.kind));
    ApprovalDecision decision = decideApproval(row.mode, {"t", row.kind, row.details}, none);
    CHECK(name(decision.verdict) == std::string(name(row.expected)));
    CHECK(decision.forPerson == row.forPerson);
    CHECK(decision.forModel == (row.expected == Decision::deny ? kPlanForModel : ""));
  }
}

TEST_CASE("refusals and questions carry the reason of the rule that decided") {
  SessionApprovals excludeRm = configuredApprovals({}, {"run_shell_command(rm)"});
  auto rm = execWords({{"rm", "-rf", "x"}});
  ApprovalDecision excluded = decideApproval(ApprovalMode::yolo, {"run_shell_command", Kind::execute, &rm}, excludeRm);
  CHECK(excluded.verdict == Decision::deny);
  CHECK(excluded.forModel == "Refused: the settings exclude this command (tools.exclude).");
  CHECK(excluded.forPerson == "Not run: your settings exclude this command (tools.exclude).");
  // The exclusion decides before plan mode does, and says so.
  CHECK(decideApproval(ApprovalMode::plan, {"run_shell_command", Kind::execute, &rm}, excludeRm).forPerson ==
        excluded.forPerson);

  tools::ExecConfirmation sedE{"sed 's/^/rm /e' f", {"sed"}, {{"sed"}}, {}, false, true, true, {}, {}};
  sedE.runsUnseen = "sed's e command";
  tools::ConfirmationDetails unseen = sedE;
  ApprovalDecision cannotCheck =
      decideApproval(ApprovalMode::standard, {"run_shell_command", Kind::execute, &unseen}, excludeRm);
  const std::string why = "the settings exclude commands (tools.exclude), and this line may run commands it does not "
                          "name (sed's e command), so the exclusions cannot be checked.";
  CHECK(cannotCheck.verdict == Decision::deny);
  CHECK(cannotCheck.forModel == "Refused: " + why + " Run the commands directly instead.");
  CHECK(cannotCheck.forPerson == "Not run: " + why);
  // Without exclusions the same line is only asked about, with nothing added.
  ApprovalDecision asked = decideApproval(ApprovalMode::standard, {"run_shell_command", Kind::execute, &unseen}, {});
  CHECK(asked.verdict == Decision::ask);
  CHECK(asked.forPerson.empty());

  tools::ConfirmationDetails sensitive = tools::EditConfirmation{
      "Edit", tools::FileDiff{"/w/.git/hooks/pre-commit", std::string("a"), "b"}, "it is inside .git/"};
  ApprovalDecision hook = decideApproval(ApprovalMode::autoEdit, {"replace", Kind::edit, &sensitive}, {});
  CHECK(hook.verdict == Decision::ask);
  CHECK(hook.forPerson == "Asked even when edits are allowed: it is inside .git/.");
  CHECK(hook.forModel.empty());

  auto readOnly = execOf({"ls"}, true);
  ApprovalDecision sealed = decideApproval(ApprovalMode::standard, {"run_shell_command", Kind::execute, &readOnly}, {});
  CHECK(sealed.verdict == Decision::allowSealed);
  CHECK(sealed.forModel.empty());
  CHECK(sealed.forPerson.empty());
}

TEST_CASE("approval keys: a stable string form that reads back, and clear errors") {
  const std::pair<ApprovalKey, const char*> rows[] = {
      {{ApprovalKind::tool, "web_fetch"}, "tool:web_fetch"},
      {{ApprovalKind::edit, "/w/a b.txt"}, "edit:/w/a b.txt"},
      {allEditsKey(), "edit:*"},
      {{ApprovalKind::read, "/w/.env"}, "read:/w/.env"},
      {{ApprovalKind::read, "logs/**"}, "read:logs/**"},  // a pattern asked for before the files are known
      {{ApprovalKind::mcpServer, "github"}, "mcp-server:github"},
      {mcpToolKey("github", "create_issue"), "mcp-tool:github create_issue"},
      {mcpToolKey("my server", "do"), "mcp-tool:\"my server\" do"},
      {{ApprovalKind::command, "git"}, "shell:git"},
      {shellPrefixKey({"git", "status"}), "shell-prefix:git status"},
      {shellPrefixKey({"grep", "a b", "say \"hi\"", "it's"}), R"(shell-prefix:grep "a b" "say \"hi\"" "it's")"},
      {{ApprovalKind::tool, "x:y"}, "tool:x:y"},  // the value is everything after the first colon
  };
  for (const auto& [key, text] : rows) {
    INFO(text);
    CHECK(formatApprovalKey(key) == text);
    auto parsed = parseApprovalKey(text);
    REQUIRE(parsed);
    CHECK(*parsed == key);
  }
  CHECK(shellPrefixWords(shellPrefixKey({"grep", "a b", "say \"hi\"", "it's"}).value) ==
        std::vector<std::string>{"grep", "a b", "say \"hi\"", "it's"});
  // A prefix reads back in its one spelling.
  CHECK(formatApprovalKey(parseApprovalKey("shell-prefix:  git   'status' ").value()) == "shell-prefix:git status");

  const std::pair<const char*, const char*> bad[] = {
      {"git", "expected kind:value"},
      {"command:git", "unknown kind \"command\" (known: tool, edit, read, mcp-server, mcp-tool, shell, shell-prefix)"},
      {"shell:", "the value is empty"},
      {"edit:src/a.txt", "an edit key names an absolute path, or * for every file"},
      {"edit:**", "an edit key names an absolute path, or * for every file"},
      {"shell-prefix:   ", "a shell prefix needs at least one word"},
      {"mcp-tool:a__b__c", "an MCP tool key names the server and the tool"},
  };
  for (const auto& [text, why] : bad) {
    auto parsed = parseApprovalKey(text);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().message == "approval key \"" + std::string(text) + "\": " + why);
  }
}

TEST_CASE("approval sets: remembering is a union, already allowed a subset") {
  ApprovalSet set{{ApprovalKind::command, "git"}, {ApprovalKind::read, "/w/.env"}};
  set.add(ApprovalSet{{ApprovalKind::read, "/w/.env"}, {ApprovalKind::tool, "glob"}});
  CHECK(set.keys().size() == 3);
  CHECK(set.covers({{ApprovalKind::read, "/w/.env"}, {ApprovalKind::command, "git"}}));
  CHECK_FALSE(set.covers({{ApprovalKind::read, "/w/.env"}, {ApprovalKind::read, "/w/.npmrc"}}));
  CHECK_FALSE(set.covers({}));  // nothing shown, nothing allowed
  CHECK_FALSE(set.contains({ApprovalKind::tool, "git"}));  // a key is its kind and its value
  // edit:* covers every edit key, and nothing but edits.
  CHECK_FALSE(set.allows({ApprovalKind::edit, "/w/a.txt"}));
  ApprovalSet allEdits{allEditsKey()};
  CHECK(allEdits.covers({{ApprovalKind::edit, "/w/a.txt"}, {ApprovalKind::edit, "/elsewhere/b.txt"}}));
  CHECK_FALSE(allEdits.allows({ApprovalKind::read, "/w/a.txt"}));
  CHECK_FALSE(allEdits.covers({{ApprovalKind::edit, "/w/a.txt"}, {ApprovalKind::command, "git"}}));
  CHECK_FALSE(ApprovalSet{{ApprovalKind::edit, "/w/a.txt"}}.allows(allEditsKey()));  // one file is not all
  CHECK(set.valuesOf(ApprovalKind::read) == std::vector<std::string>{"/w/.env"});
  CHECK(set.valuesOf(ApprovalKind::mcpServer).empty());

  // What an "always" answer remembers: the keys of what the person was shown.
  auto edit = editOf("/w/a.txt");
  tools::ConfirmationDetails read = tools::ReadConfirmation{{{"/w/.env", "a secret"}, {"/w/.npmrc", "a secret"}}};
  auto make = execOf({"make", "ctest"});
  auto mcp = mcpOf();
  auto info = infoOf();
  auto formatted = [](AlwaysScope scope, ApprovalQuery query) {
    std::string out;
    for (const auto& key : alwaysKeys(scope, query)) out += (out.empty() ? "" : " ") + formatApprovalKey(key);
    return out;
  };
  CHECK(formatted(AlwaysScope::file, {"replace", Kind::edit, &edit}) == "edit:/w/a.txt");
  CHECK(formatted(AlwaysScope::allEdits, {"replace", Kind::edit, &edit}) == "edit:*");
  CHECK(formatted(AlwaysScope::allEdits, {"read_file", Kind::read, &read}).empty());  // only an edit offers it
  CHECK(formatted(AlwaysScope::file, {"read_file", Kind::read, &read}) == "read:/w/.env read:/w/.npmrc");
  CHECK(formatted(AlwaysScope::command, {"run_shell_command", Kind::execute, &make}) == "shell:make shell:ctest");
  CHECK(formatted(AlwaysScope::mcpTool, {"srv__do_it", Kind::other, &mcp}) == "mcp-tool:srv do_it");
  // Server and tool stay apart: "a" + "b__c" is not "a__b" + "c".
  CHECK_FALSE(mcpToolKey("a", "b__c") == mcpToolKey("a__b", "c"));
  CHECK(formatted(AlwaysScope::tool, {"web_fetch", Kind::fetch, &info}) == "tool:web_fetch");
  CHECK(formatted(AlwaysScope::mcpTool, {"replace", Kind::edit, &edit}).empty());  // not what was shown

  // Settings become keys too.
  SessionApprovals settings = configuredApprovals({"read_file", "run_shell_command(npm test)", "odd(thing)"},
                                                  {"run_shell_command(rm -rf)", "glob"}, {"github"});
  std::string keys;
  for (const auto& key : settings.allowed.keys()) keys += (keys.empty() ? "" : " ") + formatApprovalKey(key);
  CHECK(keys == "tool:read_file mcp-server:github shell-prefix:npm test");
  CHECK(settings.excluded == ApprovalSet{shellPrefixKey({"rm", "-rf"})});
  SessionApprovals more = configuredApprovals({"glob"}, {});
  settings.add(more);
  CHECK(settings.allowed.contains({ApprovalKind::tool, "glob"}));
  CHECK(settings.allowed.keys().size() == 4);
}

TEST_CASE("remembered approvals are exactly as wide as what was allowed") {
  SessionApprovals approvals;
  auto a = editOf("/w/a.txt");
  auto b = editOf("/w/b.txt");
  ApprovalQuery qa{"replace", Kind::edit, &a};
  ApprovalQuery qb{"replace", Kind::edit, &b};
  remember(approvals, AlwaysScope::file, qa);
  CHECK(decideApproval(ApprovalMode::standard, qa, approvals).verdict == Decision::allow);
  CHECK(decideApproval(ApprovalMode::standard, qb, approvals).verdict == Decision::ask);
  remember(approvals, AlwaysScope::file, qb);
  CHECK(decideApproval(ApprovalMode::standard, qb, approvals).verdict == Decision::allow);
  // Plan mode still refuses, whatever was remembered.
  CHECK(decideApproval(ApprovalMode::plan, qb, approvals).verdict == Decision::deny);

  // "All edits" allows an edit to any file, in every mode but plan; it never
  // covers a file that changes how tools run, nor anything but edits.
  SessionApprovals edits;
  auto c = editOf("/elsewhere/c.txt");
  tools::ConfirmationDetails hook =
      tools::EditConfirmation{"Edit", tools::FileDiff{"/w/.git/hooks/x", std::string("a"), "b"}, "it is inside .git/"};
  auto make = execOf({"make"});
  remember(edits, AlwaysScope::allEdits, qa);
  CHECK(decideApproval(ApprovalMode::standard, qb, edits).verdict == Decision::allow);
  CHECK(decideApproval(ApprovalMode::standard, {"write_file", Kind::edit, &c}, edits).verdict == Decision::allow);
  CHECK(decideApproval(ApprovalMode::plan, qb, edits).verdict == Decision::deny);
  CHECK(decideApproval(ApprovalMode::standard, {"replace", Kind::edit, &hook}, edits).verdict == Decision::ask);
  CHECK(decideApproval(ApprovalMode::standard, {"run_shell_command", Kind::execute, &make}, edits).verdict ==
        Decision::ask);

  auto ls = execOf({"ls"});
  auto lsRm = execOf({"ls", "rm"});
  auto unparsed = execOf({});
  remember(approvals, AlwaysScope::command, {"run_shell_command", Kind::execute, &ls});
  CHECK(decideApproval(ApprovalMode::standard, {"run_shell_command", Kind::execute, &ls}, approvals).verdict == Decision::allow);
  CHECK(decideApproval(ApprovalMode::standard, {"run_shell_command", Kind::execute, &lsRm}, approvals).verdict == Decision::ask);
  CHECK(decideApproval(ApprovalMode::standard, {"run_shell_command", Kind::execute, &unparsed}, approvals).verdict ==
        Decision::ask);

  auto mcp = mcpOf();
  auto other = tools::ConfirmationDetails(tools::McpConfirmation{"srv", "other_tool"});
  remember(approvals, AlwaysScope::mcpTool, {"srv__do_it", Kind::other, &mcp});
  CHECK(decideApproval(ApprovalMode::standard, {"srv__do_it", Kind::other, &mcp}, approvals).verdict == Decision::allow);
  CHECK(decideApproval(ApprovalMode::standard, {"srv__other_tool", Kind::other, &other}, approvals).verdict == Decision::ask);
  auto elsewhere = tools::ConfirmationDetails(tools::McpConfirmation{"srv2", "do_it"});
  remember(approvals, AlwaysScope::mcpServer, {"srv__do_it", Kind::other, &mcp});  // the same key as settings' trust
  CHECK(decideApproval(ApprovalMode::standard, {"srv__other_tool", Kind::other, &other}, approvals).verdict == Decision::allow);
  CHECK(decideApproval(ApprovalMode::standard, {"srv2__do_it", Kind::other, &elsewhere}, approvals).verdict == Decision::ask);

  auto info = infoOf();
  remember(approvals, AlwaysScope::tool, {"web_fetch", Kind::fetch, &info});
  CHECK(decideApproval(ApprovalMode::standard, {"web_fetch", Kind::fetch, &info}, approvals).verdict == Decision::allow);
  CHECK(decideApproval(ApprovalMode::standard, {"other_fetch", Kind::fetch, &info}, approvals).verdict == Decision::ask);
}

TEST_CASE("shell lines: read-only parses, configured prefixes, exclusions") {
  auto readOnly = execOf({"ls", "grep"}, true);
  auto notUnderstood = tools::ConfirmationDetails(tools::ExecConfirmation{"x $(y)", {}, {}, {}, true, false, false, {}, {}});
  auto gitStatus = execWords({{"git", "status", "--short"}});
  auto gitPush = execWords({{"git", "push"}});
  auto statusThenRm = execWords({{"git", "status"}, {"rm", "-rf", "x"}});
  auto rmInPipe = execWords({{"cat", "x"}, {"rm", "y"}});
  SessionApprovals settings = configuredApprovals(
      {"run_shell_command(git status)", "read_file", "ShellTool(make)"}, {"run_shell_command(rm)", "glob"});
  CHECK(settings.allowed.valuesOf(ApprovalKind::shellPrefix) == std::vector<std::string>{"git status", "make"});
  CHECK(settings.excluded == ApprovalSet{{ApprovalKind::shellPrefix, "rm"}});
  CHECK(settings.allowed.contains({ApprovalKind::tool, "read_file"}));
  CHECK_FALSE(settings.allowed.contains({ApprovalKind::tool, "glob"}));

  auto decide = [&](ApprovalMode mode, const tools::ConfirmationDetails& d) {
    return name(decideApproval(mode, {"run_shell_command", Kind::execute, &d}, settings).verdict);
  };
  // A whole parse that only reads needs no question, even in plan mode; with
  // nobody's approval it runs sealed, except in yolo mode.
  CHECK(decide(ApprovalMode::standard, readOnly) == std::string("sealed"));
  CHECK(decide(ApprovalMode::plan, readOnly) == std::string("sealed"));
  CHECK(decide(ApprovalMode::yolo, readOnly) == std::string("allow"));
  // Not understood: a read-only claim is not trusted. With exclusions
  // configured, a line that did not parse is refused; without, it is asked.
  CHECK(decide(ApprovalMode::standard, notUnderstood) == std::string("deny"));
  CHECK(decideApproval(ApprovalMode::standard, {"run_shell_command", Kind::execute, &notUnderstood}, {}).verdict ==
        Decision::ask);
  CHECK(decide(ApprovalMode::standard, gitStatus) == std::string("allow"));
  CHECK(decide(ApprovalMode::standard, gitPush) == std::string("ask"));
  CHECK(decide(ApprovalMode::autoEdit, gitPush) == std::string("ask"));
  CHECK(decide(ApprovalMode::yolo, gitPush) == std::string("allow"));
  CHECK(decide(ApprovalMode::plan, gitPush) == std::string("deny"));
  // Every command must be allowed; an excluded one is refused in every mode.
  CHECK(decide(ApprovalMode::standard, statusThenRm) == std::string("deny"));
  CHECK(decide(ApprovalMode::yolo, statusThenRm) == std::string("deny"));
  CHECK(decide(ApprovalMode::yolo, rmInPipe) == std::string("deny"));

  SessionApprovals remembered;
  auto catAndSort = execOf({"cat", "sort"});
  remember(remembered, AlwaysScope::command, {"run_shell_command", Kind::execute, &catAndSort});
  auto catOnly = execOf({"cat"});
  auto catAndCurl = execOf({"cat", "curl"});
  CHECK(decideApproval(ApprovalMode::standard, {"run_shell_command", Kind::execute, &catOnly}, remembered).verdict ==
        Decision::allow);
  CHECK(decideApproval(ApprovalMode::standard, {"run_shell_command", Kind::execute, &catAndCurl}, remembered).verdict ==
        Decision::ask);
}

TEST_CASE("a tool named in tools.allowed skips its confirmation") {
  auto edit = editOf("/w/a.txt");
  SessionApprovals settings = configuredApprovals({"replace"}, {});
  CHECK(decideApproval(ApprovalMode::standard, {"replace", Kind::edit, &edit}, settings).verdict == Decision::allow);
  CHECK(decideApproval(ApprovalMode::standard, {"write_file", Kind::edit, &edit}, settings).verdict == Decision::ask);
  CHECK(decideApproval(ApprovalMode::plan, {"replace", Kind::edit, &edit}, settings).verdict == Decision::deny);
}

TEST_CASE("mode ids parse like Gemini CLI's") {
  CHECK(parseApprovalMode("default") == ApprovalMode::standard);
  CHECK(parseApprovalMode("autoEdit") == ApprovalMode::autoEdit);
  CHECK(parseApprovalMode("auto_edit") == ApprovalMode::autoEdit);
  CHECK(parseApprovalMode("yolo") == ApprovalMode::yolo);
  CHECK(parseApprovalMode("plan") == ApprovalMode::plan);
  CHECK_FALSE(parseApprovalMode("YOLO"));
  CHECK(std::string(toString(ApprovalMode::standard)) == "default");
}

TEST_CASE("a call in a final state never changes again") {
  CallStateMachine m;
  CHECK(m.advance(CallState::awaiting_approval));
  CHECK_FALSE(m.advance(CallState::executing));  // must be scheduled first
  CHECK(m.advance(CallState::scheduled));
  CHECK(m.advance(CallState::executing));
  CHECK(m.advance(CallState::success));
  for (auto next : {CallState::validating, CallState::scheduled, CallState::executing, CallState::error,
                    CallState::cancelled, CallState::success}) {
    CHECK_FALSE(m.advance(next));
    CHECK(m.state() == CallState::success);
  }
  CHECK(toAcpStatus(CallState::awaiting_approval) == acp::ToolCallStatus::pending);
  CHECK(toAcpStatus(CallState::cancelled) == acp::ToolCallStatus::failed);
}

TEST_CASE("permission options per confirmation, and unknown answers mean no") {
  auto edit = editOf("/w/dir/main.cpp");
  auto options = permissionOptions(edit, "Edit");
  REQUIRE(options.size() == 4);
  // The narrower "always" comes first: a client binding one key per kind takes it.
  CHECK(options[1].name == "Allow edits to main.cpp for this session");
  CHECK(options[1].kind == acp::PermissionOptionKind::allow_always);
  CHECK(options[2].name == "Allow all edits for this session");
  CHECK(options[2].kind == acp::PermissionOptionKind::allow_always);
  CHECK(options.back().kind == acp::PermissionOptionKind::reject_once);
  CHECK(choiceFor("allow_always_file", edit)->always == AlwaysScope::file);
  CHECK(choiceFor("allow_always_edits", edit)->always == AlwaysScope::allEdits);
  CHECK(choiceFor("allow_once", edit)->allow);
  CHECK_FALSE(choiceFor("allow_once", edit)->always.has_value());
  CHECK_FALSE(choiceFor("reject_once", edit)->allow);
  CHECK_FALSE(choiceFor("proceed_always", edit).has_value());
  CHECK_FALSE(choiceFor("allow_always_tool", edit).has_value());  // not offered for edits

  auto unparsed = tools::ConfirmationDetails(tools::ExecConfirmation{"x", {}, {}, {}, false, false, false, {}, {}});
  auto execOptions = permissionOptions(unparsed, "Shell");
  CHECK(execOptions.size() == 2);  // nothing to remember for a command we could not read
  CHECK_FALSE(choiceFor("allow_always_edits", execOf({"make"})).has_value());  // offered for edits only
}

TEST_CASE("settings files: comments, merge order, bad fields") {
  CHECK(stripJsonComments("{\"a\": \"x // not a comment\", // gone\n \"b\": /* gone */ 1}") ==
        "{\"a\": \"x // not a comment\", \n \"b\":   1}");
  std::string user = "/tmp/lathe-settings-user.json";
  std::string project = "/tmp/lathe-settings-project.json";
  std::ofstream(user) << "{ // user\n \"model\": {\"name\": \"m1\"}, \"tools\": {\"core\": [\"read_file\"]}}";
  std::ofstream(project) << "{\"tools\": {\"exclude\": [\"glob\"]}, \"general\": {\"defaultApprovalMode\": \"plan\"}}";
  Settings settings;
  REQUIRE(mergeSettingsFile(user, settings).ok());
  REQUIRE(mergeSettingsFile(project, settings).ok());
  REQUIRE(mergeSettingsFile("/tmp/definitely-missing-settings.json", settings).ok());
  CHECK(settings.model == "m1");
  CHECK(settings.coreTools == std::vector<std::string>{"read_file"});
  CHECK(settings.excludeTools == std::vector<std::string>{"glob"});
  CHECK(settings.approvalMode == "plan");
  std::ofstream(project) << "{\"tools\": {\"sandbox\": \"docker\", \"sandboxNetwork\": true, \"allowed\": [\"run_shell_command(ls)\"]}}";
  REQUIRE(mergeSettingsFile(project, settings).ok());
  CHECK(settings.sandbox == true);
  CHECK(settings.sandboxNetwork == true);
  CHECK(settings.allowedTools == std::vector<std::string>{"run_shell_command(ls)"});
  std::ofstream(project) << "{\"tools\": {\"core\": \"read_file\"}}";
  auto bad = mergeSettingsFile(project, settings);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("tools.core") != std::string::npos);
  std::remove(user.c_str());
  std::remove(project.c_str());
}

TEST_CASE("edits to files that change how tools run are always asked about, and say why") {
  tools::ConfirmationDetails sensitive = tools::EditConfirmation{
      "Edit", tools::FileDiff{"/w/.git/hooks/pre-commit", std::string("a"), "b"}, "it is inside .git/"};
  SessionApprovals approvals;
  approvals.allowed.add({ApprovalKind::edit, "/w/.git/hooks/pre-commit"});
  for (ApprovalMode mode : {ApprovalMode::standard, ApprovalMode::autoEdit}) {
    CHECK(decideApproval(mode, {"replace", Kind::edit, &sensitive}, approvals).verdict == Decision::ask);
  }
  CHECK(decideApproval(ApprovalMode::plan, {"replace", Kind::edit, &sensitive}, approvals).verdict == Decision::deny);
  CHECK(decideApproval(ApprovalMode::yolo, {"replace", Kind::edit, &sensitive}, approvals).verdict == Decision::allow);
}

TEST_CASE("MCP calls: options, settings that name them, trust and mcp.allowed, plan mode") {
  auto mcp = mcpOf();  // server srv, tool do_it
  tools::ToolSource source{tools::ToolSource::Group::mcp, "srv", "do_it"};
  auto query = [&](Kind kind = Kind::other) { return ApprovalQuery{"srv__do_it", kind, &mcp, &source}; };

  // The tool, then (wider, after it) the whole server, naming both.
  auto options = permissionOptions(mcp, "do_it (srv)");
  REQUIRE(options.size() == 4);
  CHECK(options[0].optionId == "allow_once");
  CHECK(options[1].name == "Allow do_it from srv for this session");
  CHECK(options[2].name == "Allow every tool from srv for this session");
  CHECK(options[2].kind == acp::PermissionOptionKind::allow_always);
  CHECK(options[3].kind == acp::PermissionOptionKind::reject_once);
  CHECK(choiceFor("allow_always_mcp_tool", mcp)->always == AlwaysScope::mcpTool);
  CHECK(choiceFor("allow_always_mcp_server", mcp)->always == AlwaysScope::mcpServer);
  CHECK_FALSE(choiceFor("allow_always_mcp_server", execOf({"make"})).has_value());  // offered for MCP calls only
  CHECK_FALSE(choiceFor("allow_always_tool", mcp).has_value());  // not offered for MCP

  struct Row {
    const char* why;
    SessionApprovals approvals;
    ApprovalMode mode;
    Kind kind;
    Decision expected;
  };
  const Row rows[] = {
      {"nothing configured: ask", {}, ApprovalMode::standard, Kind::other, Decision::ask},
      {"autoEdit still asks", {}, ApprovalMode::autoEdit, Kind::other, Decision::ask},
      {"yolo allows", {}, ApprovalMode::yolo, Kind::other, Decision::allow},
      {"tools.allowed server__tool", configuredApprovals({"srv__do_it"}, {}), ApprovalMode::standard, Kind::other,
       Decision::allow},
      {"tools.allowed Gemini spelling", configuredApprovals({"mcp_srv_do_it"}, {}), ApprovalMode::standard,
       Kind::other, Decision::allow},
      {"tools.allowed another tool", configuredApprovals({"mcp_srv_other"}, {}), ApprovalMode::standard,
       Kind::other, Decision::ask},
      {"tools.allowed the bare tool name is not enough", configuredApprovals({"do_it"}, {}),
       ApprovalMode::standard, Kind::other, Decision::ask},
      {"mcp.allowed / trust: the server", configuredApprovals({}, {}, {"srv"}), ApprovalMode::standard, Kind::other,
       Decision::allow},
      {"mcp.allowed another server", configuredApprovals({}, {}, {"other"}), ApprovalMode::standard, Kind::other,
       Decision::ask},
      {"plan refuses a tool not read-only", {}, ApprovalMode::plan, Kind::other, Decision::deny},
      {"plan refuses even an allowed server's", configuredApprovals({}, {}, {"srv"}), ApprovalMode::plan,
       Kind::other, Decision::deny},
      {"plan asks for a read-only one", {}, ApprovalMode::plan, Kind::read, Decision::ask},
      {"plan and an allowed server, read-only", configuredApprovals({}, {}, {"srv"}), ApprovalMode::plan,
       Kind::read, Decision::allow},
  };
  for (const auto& row : rows) {
    INFO(row.why);
    CHECK(name(decideApproval(row.mode, query(row.kind), row.approvals).verdict) == std::string(name(row.expected)));
  }
  // A built-in of the same name as a Gemini spelling is not an MCP tool.
  auto info = infoOf();
  CHECK(decideApproval(ApprovalMode::standard, {"other", Kind::other, &info, nullptr},
                       configuredApprovals({"mcp_srv_do_it"}, {})).verdict == Decision::ask);
}

TEST_CASE("settings name MCP tools through their source, never by parsing names") {
  tools::ToolSource mcp{tools::ToolSource::Group::mcp, "my_server", "get-it"};
  tools::ToolSource builtin{};
  CHECK(tools::settingNamesTool("my_server__get-it", "my_server__get-it", mcp));
  CHECK(tools::settingNamesTool("mcp_my_server_get-it", "my_server__get-it", mcp));
  CHECK_FALSE(tools::settingNamesTool("mcp_my_server_get", "my_server__get-it", mcp));
  CHECK_FALSE(tools::settingNamesTool("mcp_my_server_get-it", "glob", builtin));
  tools::ToolSource spaced{tools::ToolSource::Group::mcp, "My Server.v2/x", "echo"};
  CHECK(tools::settingNamesTool("mcp_My_Server.v2_x_echo", "My_Server_v2_x__echo", spaced));  // Gemini's cleaning
  CHECK(tools::settingNamesTool("mcp_My Server.v2/x_echo", "My_Server_v2_x__echo", spaced));

  tools::ToolFilter filter{{"read_file"}, {"mcp_my_server_get-it", "glob"}};
  CHECK(filter.allows("read_file"));
  CHECK_FALSE(filter.allows("glob"));
  CHECK_FALSE(filter.allows("grep_search"));  // tools.core limits built-ins
  CHECK_FALSE(filter.allows("my_server__get-it", mcp));
  CHECK(filter.allows("my_server__other", {tools::ToolSource::Group::mcp, "my_server", "other"}));
  CHECK(filter.allows("discovered_tool_x", {tools::ToolSource::Group::discovered, "", ""}));
}

TEST_CASE("read-only sub-agents: only what reads runs, shell lines sealed, nothing else asked") {
  auto edit = editOf("/w/a.txt");
  auto writes = execOf({"rm"});
  auto reads = execOf({"ls"}, true);
  tools::ConfirmationDetails kept = tools::ReadConfirmation{{{"/w/.env", "an environment file (.env)"}}};
  auto mcp = mcpOf();
  SessionApprovals allowedRm = configuredApprovals({"run_shell_command(rm)", "run_shell_command(ls)", "write_file"}, {});
  struct Row {
    Kind kind;
    const tools::ConfirmationDetails* details;
    const SessionApprovals* approvals;
    Decision expected;
  };
  SessionApprovals none;
  const Row rows[] = {
      {Kind::read, nullptr, &none, Decision::allow},
      {Kind::search, nullptr, &none, Decision::allow},
      {Kind::think, nullptr, &none, Decision::allow},  // complete_task
      {Kind::read, &kept, &none, Decision::ask},       // still the person's to decide
      {Kind::execute, &reads, &none, Decision::allowSealed},
      {Kind::execute, &reads, &allowedRm, Decision::allowSealed},  // sealed even when allowed
      {Kind::execute, &writes, &none, Decision::deny},
      {Kind::execute, &writes, &allowedRm, Decision::deny},
      {Kind::edit, &edit, &none, Decision::deny},
      {Kind::edit, &edit, &allowedRm, Decision::deny},
      {Kind::other, &mcp, &none, Decision::deny},
      {Kind::other, nullptr, &none, Decision::deny},
  };
  for (const auto& row : rows) {
    INFO("kind " << tools::toString(row.kind));
    ApprovalQuery query{"t", row.kind, row.details};
    for (ApprovalMode mode : {ApprovalMode::standard, ApprovalMode::yolo}) {
      ApprovalDecision decision = withinReadOnly(decideApproval(mode, query, *row.approvals), query);
      CHECK(name(decision.verdict) == std::string(name(mode == ApprovalMode::yolo && row.expected == Decision::ask
                                                           ? Decision::allow
                                                           : row.expected)));
      if (decision.verdict == Decision::deny) CHECK(decision.forPerson.starts_with("Not run: a read-only sub-agent"));
    }
  }
}
