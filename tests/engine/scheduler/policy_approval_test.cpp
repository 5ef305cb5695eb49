// The approval table with Gemini CLI policy rules: every kind of rule (tool
// names and their wildcards, MCP servers, command prefixes and patterns,
// argument patterns, modes, interactive, annotations), ranks between tiers,
// rules against the session's answers, what an allow never lifts, shell lines
// judged command by command, and the words that name the rule.
#include <catch2/catch.hpp>

#include "engine/config/policy_files.h"
#include "engine/scheduler/approval_policy.h"
#include "tools/shell/exec_confirmation.h"

using namespace lathe;
using namespace lathe::engine;
using tools::Kind;

namespace {

const char* name(Decision d) {
  return d == Decision::allow ? "allow" : d == Decision::allowSealed ? "sealed" : d == Decision::ask ? "ask" : "deny";
}

std::shared_ptr<const PolicyRules> rulesOf(const std::string& toml, PolicyTier tier = PolicyTier::user,
                                           const std::string& file = "/home/me/.gemini/policies/rules.toml") {
  auto parsed = parsePolicyFile(toml, file, tier, tier == PolicyTier::extension ? "tidy" : "");
  INFO(toml);
  REQUIRE(parsed);
  return std::make_shared<const PolicyRules>(std::move(parsed).value());
}

SessionApprovals with(std::initializer_list<std::shared_ptr<const PolicyRules>> rules, SessionApprovals base = {}) {
  for (const auto& r : rules) base.policies.push_back(r);
  return base;
}

tools::ConfirmationDetails shell(const std::string& line) {
  return tools::shell::execConfirmationFor(line, tools::shell::analyzeShellCommand(line));
}

struct Call {
  std::string tool;
  Kind kind = Kind::other;
  std::optional<tools::ConfirmationDetails> details;
  std::optional<tools::ToolSource> source;
  std::string args = "{}";
  std::string calledAs;
  std::string subagent;
};

Call shellCall(const std::string& line) {
  return {"run_shell_command", Kind::execute, shell(line), std::nullopt,
          json::buildObject([&](json::Writer& w) { json::put(w, "command", line); }), ""};
}
Call mcpCall(const std::string& server, const std::string& tool, std::string annotations = "") {
  tools::ToolSource source{tools::ToolSource::Group::mcp, server, tool, std::move(annotations)};
  return {server + "__" + tool, Kind::other, tools::McpConfirmation{server, tool}, source, "{}", ""};
}
Call editCall(const std::string& path, std::string sensitive = "") {
  return {"replace", Kind::edit, tools::EditConfirmation{"Edit", tools::FileDiff{path, std::string("a"), "b"}, sensitive},
          std::nullopt, json::buildObject([&](json::Writer& w) { json::put(w, "file_path", path); }), ""};
}
Call readCall() { return {"read_file", Kind::read, std::nullopt, std::nullopt, R"({"file_path":"/w/a.txt"})", ""}; }
Call subagentRead(const std::string& agent) {
  Call call = readCall();
  call.subagent = agent;
  return call;
}
Call fetchCall() {
  return {"web_fetch", Kind::fetch, tools::InfoConfirmation{"fetch it", {"https://example.com"}}, std::nullopt, "{}", ""};
}

ApprovalDecision decide(ApprovalMode mode, const Call& call, const SessionApprovals& approvals) {
  ApprovalQuery query{call.tool, call.kind, call.details ? &*call.details : nullptr, call.source ? &*call.source : nullptr,
                      call.args, call.calledAs, call.subagent};
  return decideApproval(mode, query, approvals);
}

// The decisions in default, autoEdit, yolo and plan mode.
std::string decisions(const Call& call, const SessionApprovals& approvals) {
  std::string out;
  for (ApprovalMode mode : {ApprovalMode::standard, ApprovalMode::autoEdit, ApprovalMode::yolo, ApprovalMode::plan}) {
    out += (out.empty() ? "" : " ") + std::string(name(decide(mode, call, approvals).verdict));
  }
  return out;
}

}  // namespace

TEST_CASE("policy rules of every kind decide before the mode") {
  auto allowFetch = rulesOf("[[rule]]\ntoolName = \"web_fetch\"\ndecision = \"allow\"\npriority = 10\n");
  auto askRead = rulesOf("[[rule]]\ntoolName = \"read_file\"\ndecision = \"ask_user\"\npriority = 10\n");
  auto denyAll = rulesOf("[[rule]]\ntoolName = \"*\"\ndecision = \"deny\"\npriority = 10\n");
  auto toolList = rulesOf("[[rule]]\ntoolName = [\"web_fetch\", \"replace\"]\ndecision = \"allow\"\npriority = 10\n");
  auto server = rulesOf("[[rule]]\nmcpName = \"github\"\ndecision = \"allow\"\npriority = 10\n");
  auto serverTool =
      rulesOf("[[rule]]\nmcpName = \"github\"\ntoolName = \"search\"\ndecision = \"allow\"\npriority = 10\n");
  auto fqnServer = rulesOf("[[rule]]\ntoolName = \"mcp_github_*\"\ndecision = \"allow\"\npriority = 10\n");
  auto anyMcp = rulesOf("[[rule]]\ntoolName = \"mcp_*\"\ndecision = \"deny\"\npriority = 10\n");
  auto anyServerSearch = rulesOf("[[rule]]\ntoolName = \"mcp_*_search\"\ndecision = \"allow\"\npriority = 10\n");
  auto starServer = rulesOf("[[rule]]\nmcpName = \"*\"\ntoolName = \"*\"\ndecision = \"ask_user\"\npriority = 10\n");
  auto gitPrefix = rulesOf(
      "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\ndecision = \"allow\"\npriority = 10\n");
  auto rmRf = rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = [\"rm -rf\", \"shred\"]\n"
                      "decision = \"deny\"\npriority = 10\ndenyMessage = \"Deletion is permanent\"\n");
  auto rm = rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"rm\"\ndecision = \"deny\"\npriority = 1\n");
  auto gitRegex = rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandRegex = \"git (status|log|commit)\"\n"
                          "decision = \"allow\"\npriority = 10\n");
  auto secretArgs =
      rulesOf("[[rule]]\ntoolName = \"*\"\nargsPattern = \"secret\\\\.json\"\ndecision = \"deny\"\npriority = 10\n");
  auto pushAsk = rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git push\"\n"
                         "decision = \"ask_user\"\npriority = 10\n");
  auto askGit = rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\n"
                        "decision = \"ask_user\"\npriority = 10\n");
  auto yoloDeny = rulesOf(
      "[[rule]]\ntoolName = \"web_fetch\"\ndecision = \"deny\"\npriority = 10\nmodes = [\"yolo\"]\n");
  auto readOnlyHint = rulesOf("[[rule]]\nmcpName = \"*\"\ntoolName = \"*\"\ntoolAnnotations = { readOnlyHint = true }\n"
                              "decision = \"allow\"\npriority = 10\n");
  auto subagent = rulesOf("[[rule]]\ntoolName = \"*\"\nsubagent = \"helper\"\ndecision = \"deny\"\npriority = 10\n");
  auto legacyName = rulesOf("[[rule]]\ntoolName = \"search_file_content\"\ndecision = \"deny\"\npriority = 10\n");
  auto writePlan = rulesOf("[[rule]]\ntoolName = \"replace\"\ndecision = \"allow\"\npriority = 10\n"
                           "modes = [\"plan\", \"default\"]\n");
  auto echoRedirect = rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"echo\"\n"
                              "decision = \"allow\"\npriority = 10\nallowRedirection = true\n");

  Call grep{"grep_search", Kind::search, std::nullopt, std::nullopt, "{}", ""};
  struct Row {
    const char* why;
    SessionApprovals approvals;
    Call call;
    const char* expected;  // default autoEdit yolo plan
  };
  const Row rows[] = {
      {"no rules: the mode decides", {}, fetchCall(), "ask ask allow ask"},
      {"a tool named allows it", with({allowFetch}), fetchCall(), "allow allow allow allow"},
      {"ask_user asks even for a tool that asks nothing itself", with({askRead}), readCall(), "ask ask ask ask"},
      {"* refuses every tool, in every mode", with({denyAll}), readCall(), "deny deny deny deny"},
      {"a list of names", with({toolList}), editCall("/w/a.txt"), "allow allow allow deny"},
      {"mcpName alone: every tool of the server", with({server}), mcpCall("github", "create_issue"),
       "allow allow allow deny"},
      {"mcpName: not another server's", with({server}), mcpCall("gitlab", "create_issue"), "ask ask allow deny"},
      {"mcpName with a toolName: that tool", with({serverTool}), mcpCall("github", "search"), "allow allow allow deny"},
      {"mcpName with a toolName: not the server's others", with({serverTool}), mcpCall("github", "delete"),
       "ask ask allow deny"},
      {"mcp_<server>_*", with({fqnServer}), mcpCall("github", "delete"), "allow allow allow deny"},
      {"mcp_<server>_* compares the server, not a prefix", with({fqnServer}), mcpCall("github_enterprise", "x"),
       "ask ask allow deny"},
      {"mcp_* refuses every MCP tool", with({anyMcp}), mcpCall("files", "read"), "deny deny deny deny"},
      {"mcp_* is no built-in", with({anyMcp}), fetchCall(), "ask ask allow ask"},
      {"mcp_*_search: that tool of any server", with({anyServerSearch}), mcpCall("jira", "search"),
       "allow allow allow deny"},
      {"mcpName * with toolName *: any MCP tool", with({starServer}), mcpCall("jira", "search"), "ask ask ask deny"},
      {"commandPrefix allows a command line of it", with({gitPrefix}), shellCall("git commit -m x"),
       "allow allow allow deny"},
      {"commandPrefix: every command of the line must be allowed", with({gitPrefix}),
       shellCall("git commit -m x && make"), "ask ask allow deny"},
      {"commandPrefix compares words, not text", with({gitPrefix}), shellCall("gitk --all"), "ask ask allow deny"},
      {"a refused command refuses the line, in every mode", with({rmRf}), shellCall("make && rm -rf build"),
       "deny deny deny deny"},
      {"a list of prefixes", with({rmRf}), shellCall("shred notes.txt"), "deny deny deny deny"},
      {"a prefix is word for word: rm -r -f is not rm -rf", with({rmRf}), shellCall("rm -r -f build"),
       "ask ask allow deny"},
      {"a command spelled by path is refused by its bare name", with({rm}), shellCall("/bin/rm -f x"),
       "deny deny deny deny"},
      {"a refused command inside a substitution", with({rm}), shellCall("echo $(rm -f x)"), "deny deny deny deny"},
      {"a refused command behind a wrapper", with({rm}), shellCall("sudo rm x"), "deny deny deny deny"},
      {"commandRegex from the command's start", with({gitRegex}), shellCall("git log --oneline"),
       "allow allow allow allow"},
      {"commandRegex: no match, the mode decides", with({gitRegex}), shellCall("git push"), "ask ask allow deny"},
      {"commandRegex per command of the line", with({gitRegex}), shellCall("git commit -m x; git status"),
       "allow allow allow deny"},
      {"argsPattern over the stable arguments", with({secretArgs}), shellCall("cat secret.json"), "deny deny deny deny"},
      {"argsPattern over another tool's arguments", with({secretArgs}),
       Call{"read_file", Kind::read, std::nullopt, std::nullopt, R"({"file_path":"/w/secret.json"})", ""},
       "deny deny deny deny"},
      {"a line that hides commands cannot pass a refusing rule", with({rm}), shellCall("eval \"$CMD\""),
       "deny deny deny deny"},
      {"nor an asking one, in yolo too", with({pushAsk}), shellCall("eval \"$CMD\""), "ask ask ask deny"},
      {"ask_user on one command asks for the line, in yolo too", with({pushAsk}), shellCall("git push origin main"),
       "ask ask ask deny"},
      {"ask_user beats the read-only judgement", with({askGit}), shellCall("git status"), "ask ask ask ask"},
      {"modes: a rule for yolo only", with({yoloDeny}), fetchCall(), "ask ask deny ask"},
      {"toolAnnotations: matched", with({readOnlyHint}), mcpCall("files", "read", R"({"readOnlyHint":true})"),
       "allow allow allow deny"},
      {"toolAnnotations: a tool without them", with({readOnlyHint}), mcpCall("files", "write", R"({"title":"W"})"),
       "ask ask allow deny"},
      {"a sub-agent's rule is not the main agent's", with({subagent}), readCall(), "allow allow allow allow"},
      {"nor another sub-agent's", with({subagent}), subagentRead("other"), "allow allow allow allow"},
      {"it holds for that sub-agent's calls", with({subagent}), subagentRead("helper"), "deny deny deny deny"},
      {"a legacy name names the tool", with({legacyName}), grep, "deny deny deny deny"},
      {"an allow lifts plan mode only when it names plan", with({writePlan}), editCall("/w/a.txt"),
       "allow allow allow allow"},
      {"an allow never covers an edit that changes how tools run", with({writePlan}),
       editCall("/w/.git/hooks/x", "it is inside .git/"), "ask ask allow ask"},
      {"redirections need allowRedirection", with({gitPrefix}), shellCall("git log > log.txt"), "ask ask allow deny"},
      {"allowRedirection lets the line write", with({echoRedirect}), shellCall("echo hi > out.txt"),
       "allow allow allow deny"},
  };
  for (const auto& row : rows) {
    INFO(row.why);
    CHECK(decisions(row.call, row.approvals) == row.expected);
  }
}

TEST_CASE("policy rules: while a policy file could not be read, what would run unasked asks, and refusals stay") {
  auto broken = std::make_shared<PolicyRules>();
  broken->unread = {"/home/me/.gemini/policies/typo.toml"};
  auto rmRf = rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"rm -rf\"\n"
                      "decision = \"deny\"\npriority = 10\n", PolicyTier::workspace, "/w/.gemini/policies/p.toml");
  auto allowGit = rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\n"
                          "decision = \"allow\"\npriority = 10\n");
  SessionApprovals approvals = with({broken, rmRf, allowGit});
  approvals.allowed.add({ApprovalKind::tool, "web_fetch"});
  struct Row {
    const char* why;
    Call call;
    const char* expected;  // default autoEdit yolo plan
  };
  const Row rows[] = {
      {"a read that needs no question", readCall(), "ask ask ask ask"},
      {"a line a rule allows", shellCall("git status"), "ask ask ask ask"},
      {"a read-only line that would run sealed", shellCall("ls"), "ask ask ask ask"},
      {"a tool the session allowed", fetchCall(), "ask ask ask ask"},
      {"a refusal of another file still refuses", shellCall("rm -rf build"), "deny deny deny deny"},
      {"a plan-mode refusal stays", editCall("/w/a.txt"), "ask ask ask deny"},
  };
  for (const auto& row : rows) {
    INFO(row.why);
    CHECK(decisions(row.call, approvals) == row.expected);
  }
  ApprovalDecision asked = decide(ApprovalMode::yolo, readCall(), approvals);
  CHECK(asked.askedAt == kAskedAlways);
  CHECK(asked.forPerson.find("/home/me/.gemini/policies/typo.toml") != std::string::npos);
  CHECK(decisions(readCall(), with({rmRf})) == "allow allow allow allow");
}

TEST_CASE("policy rules: ranks between tiers, equal ranks, and the session's answers") {
  auto allowGit = [](PolicyTier tier, int priority) {
    return rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\ndecision = \"allow\"\npriority = " +
                       std::to_string(priority) + "\n",
                   tier);
  };
  auto denyGit = [](PolicyTier tier, int priority) {
    return rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\ndecision = \"deny\"\npriority = " +
                       std::to_string(priority) + "\n",
                   tier);
  };
  auto askGit = [](PolicyTier tier) {
    return rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\ndecision = \"ask_user\"\n"
                   "priority = 10\n",
                   tier);
  };
  Call push = shellCall("git push");
  SessionApprovals gitAnswered;
  gitAnswered.allowed.add({ApprovalKind::command, "git"});
  struct Row {
    const char* why;
    SessionApprovals approvals;
    const char* expected;
  };
  const Row rows[] = {
      {"a user rule at 1 outranks a workspace rule at 999", with({allowGit(PolicyTier::user, 1), denyGit(PolicyTier::workspace, 999)}),
       "allow allow allow deny"},
      {"an admin rule at 0 outranks a user rule at 999", with({allowGit(PolicyTier::user, 999), denyGit(PolicyTier::admin, 0)}),
       "deny deny deny deny"},
      {"within a tier the higher priority wins", with({allowGit(PolicyTier::user, 500), denyGit(PolicyTier::user, 400)}),
       "allow allow allow deny"},
      {"equal ranks: the refusal wins", with({allowGit(PolicyTier::user, 500), denyGit(PolicyTier::user, 500)}),
       "deny deny deny deny"},
      {"an extension's rule outranks none of the workspace's", with({denyGit(PolicyTier::extension, 999), allowGit(PolicyTier::workspace, 0)}),
       "allow allow allow deny"},
      {"the person's answer stands over a workspace's question", with({askGit(PolicyTier::workspace)}, gitAnswered),
       "allow allow allow deny"},
      {"the person's own rule stands over their answer", with({askGit(PolicyTier::user)}, gitAnswered),
       "ask ask ask deny"},
      {"and an extension's question yields to it", with({askGit(PolicyTier::extension)}, gitAnswered),
       "allow allow allow deny"},
  };
  for (const auto& row : rows) {
    INFO(row.why);
    CHECK(decisions(push, row.approvals) == row.expected);
  }

  // A kept "always allow rm" (priority 950 of the user tier) never undoes the
  // person's own rule against rm -rf (priority 100), nor their question.
  auto keptRm = std::const_pointer_cast<PolicyRules>(rulesOf(
      "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = [\"rm\"]\ndecision = \"allow\"\npriority = 950\n"));
  keptRm->rules[0].origin.kept = true;
  auto denyRmRf = rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"rm -rf\"\n"
                          "decision = \"deny\"\npriority = 100\n");
  auto askRmI = rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"rm -i\"\n"
                        "decision = \"ask_user\"\npriority = 100\n");
  SessionApprovals keptAndOwn = with({keptRm, denyRmRf, askRmI});
  CHECK(decisions(shellCall("rm x"), keptAndOwn) == "allow allow allow deny");
  CHECK(decisions(shellCall("rm -rf x"), keptAndOwn) == "deny deny deny deny");
  CHECK(decisions(shellCall("rm -i x"), keptAndOwn) == "ask ask ask deny");
  // A workspace's refusal below 950 is outranked by it, as in Gemini CLI.
  auto workspaceDeny = rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"rm -rf\"\n"
                               "decision = \"deny\"\npriority = 999\n", PolicyTier::workspace);
  CHECK(decisions(shellCall("rm -rf x"), with({keptRm, workspaceDeny})) == "allow allow allow deny");
}

TEST_CASE("policy rules: interactive, and the words that name the rule") {
  auto headlessOnly = rulesOf("[[rule]]\ntoolName = \"web_fetch\"\ndecision = \"deny\"\npriority = 10\ninteractive = false\n");
  SessionApprovals asking = with({headlessOnly});
  SessionApprovals headless = with({headlessOnly});
  headless.interactive = false;
  CHECK(decide(ApprovalMode::standard, fetchCall(), asking).verdict == Decision::ask);
  CHECK(decide(ApprovalMode::standard, fetchCall(), headless).verdict == Decision::deny);

  auto rmRf = rulesOf("# rules\n\n[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"rm -rf\"\n"
                      "decision = \"deny\"\npriority = 10\ndenyMessage = \"Deletion is permanent.\"\n",
                      PolicyTier::user, "/home/me/.gemini/policies/safety.toml");
  ApprovalDecision denied = decide(ApprovalMode::yolo, shellCall("rm -rf build"), with({rmRf}));
  CHECK(denied.verdict == Decision::deny);
  CHECK(denied.forModel == "Refused by policy. Deletion is permanent.");
  CHECK(denied.forPerson ==
        "Not run: refused by your policy rule 1 (line 3) of /home/me/.gemini/policies/safety.toml. Deletion is permanent.");

  auto named = rulesOf("[[rule]]\nname = \"no pushes\"\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git push\"\n"
                       "decision = \"ask_user\"\npriority = 7\n",
                       PolicyTier::workspace, "/w/.gemini/policies/team.toml");
  ApprovalDecision asked = decide(ApprovalMode::standard, shellCall("git push"), with({named}));
  CHECK(asked.verdict == Decision::ask);
  CHECK(asked.forPerson == "Asked because of this workspace's policy rule 1 (\"no pushes\") (line 1) of "
                           "/w/.gemini/policies/team.toml.");
  CHECK(asked.askedAt == 3007);  // workspace tier 3 + priority 7/1000, exactly

  auto rm = rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"rm\"\ndecision = \"deny\"\npriority = 1\n",
                    PolicyTier::extension, "/ext/tidy/policies/p.toml");
  ApprovalDecision unseen = decide(ApprovalMode::standard, shellCall("eval \"$CMD\""), with({rm}));
  CHECK(unseen.forPerson == "Not run: refused by extension tidy's policy rule 1 (line 1) of /ext/tidy/policies/p.toml "
                            "(this line may run commands it does not name, so the rule cannot be checked).");
  // Asked whatever is answered: no "always" is offered for it.
  auto pushAsk = rulesOf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git push\"\n"
                         "decision = \"ask_user\"\npriority = 10\n");
  CHECK(decide(ApprovalMode::yolo, shellCall("eval \"$CMD\""), with({pushAsk})).askedAt == kAskedAlways);
  CHECK(decide(ApprovalMode::standard, editCall("/w/.gemini/settings.json", "it is inside .gemini/"), {}).askedAt ==
        kAskedAlways);
  CHECK(decide(ApprovalMode::standard, fetchCall(), {}).askedAt == 0);
}

TEST_CASE("policy arguments: Gemini CLI's stable JSON and names") {
  const std::string nul(1, '\0');
  CHECK(stableArgs(R"({"b":2,"a":{"d":1.0,"c":"x\ny"}})") ==
        "{" + nul + R"("a":{"c":"x\ny","d":1})" + nul + "," + nul + R"("b":2)" + nul + "}");
  CHECK(stableArgs("not json") == "{}");
  CHECK(jsString("say \"hi\"\t\x01") == "\"say \\\"hi\\\"\\t\\u0001\"");
  CHECK(escapeRegex("a.b (c)") == "a\\.b\\ \\(c\\)");
  CHECK(policyNames("grep_search", "search_file_content") == std::vector<std::string>{"grep_search", "search_file_content"});
  CHECK(policyNames("grep_search", "") == std::vector<std::string>{"grep_search", "search_file_content"});
}
