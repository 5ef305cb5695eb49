// Approval decisions.
#include "engine/scheduler/approval_policy.h"

#include <algorithm>

#include "tools/core/shell_words.h"
#include "tools/shell/shell_analysis.h"

namespace lathe::engine {
namespace {

using Prefixes = std::vector<std::vector<std::string>>;

bool startsWith(const std::vector<std::string>& words, const std::vector<std::string>& prefix) {
  if (prefix.empty() || prefix.size() > words.size()) return false;
  return std::equal(prefix.begin(), prefix.end(), words.begin());
}

bool anyPrefix(const std::vector<std::string>& words, const Prefixes& prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](const auto& p) { return startsWith(words, p); });
}

Prefixes prefixesIn(const ApprovalSet& set) {
  Prefixes out;
  for (const auto& value : set.valuesOf(ApprovalKind::shellPrefix)) out.push_back(shellPrefixWords(value));
  return out;
}

// The keys of what the person is shown, per confirmation.
ApprovalKey editKey(const tools::EditConfirmation& edit) { return {ApprovalKind::edit, edit.diff.path}; }
std::vector<ApprovalKey> readKeys(const tools::ReadConfirmation& read) {
  std::vector<ApprovalKey> keys;
  for (const auto& file : read.files) keys.push_back({ApprovalKind::read, file.path});
  return keys;
}
std::vector<ApprovalKey> commandKeys(const tools::ExecConfirmation& exec) {
  std::vector<ApprovalKey> keys;
  for (const auto& root : exec.rootCommands) keys.push_back({ApprovalKind::command, root});
  return keys;
}

// With exclusions configured, a line must show every command it runs: one
// that did not parse, or runs a computed command name, is refused. A command
// spelled by path (/bin/rm for rm) is caught too: refusing more is the safe side.
bool excludedCommand(const tools::ExecConfirmation& exec, const SessionApprovals& approvals) {
  const Prefixes excluded = prefixesIn(approvals.excluded);
  if (excluded.empty()) return false;
  // A line the analysis cannot see into (eval of computed text, env -S, a
  // shell reading a pipe, sed's e command) could run an excluded command
  // unseen: refused, never asked (an approval would run it).
  if (!exec.parsed || !exec.understood || !exec.runsUnseen.empty()) return true;
  return std::any_of(exec.commands.begin(), exec.commands.end(), [&](std::vector<std::string> words) {
    if (words.empty()) return true;
    words.front() = words.front().substr(words.front().find_last_of('/') + 1);
    return anyPrefix(words, excluded);
  });
}

bool remembered(const tools::ConfirmationDetails& details, const ApprovalSet& allowed) {
  if (auto* edit = std::get_if<tools::EditConfirmation>(&details)) return allowed.allows(editKey(*edit));
  if (auto* exec = std::get_if<tools::ExecConfirmation>(&details)) {
    // Every command inside must be allowed, by its name or a configured
    // prefix; an empty list means the line could not be understood, and that
    // is never pre-approved. Allowing a command never covers what the line
    // writes through redirections: that is asked about.
    if (!exec->understood || exec->commands.empty() || !exec->writtenFiles.empty()) return false;
    const Prefixes prefixes = prefixesIn(allowed);
    return std::all_of(exec->commands.begin(), exec->commands.end(), [&](const auto& words) {
      return (!words.empty() && allowed.contains({ApprovalKind::command, words.front()})) || anyPrefix(words, prefixes);
    });
  }
  if (auto* read = std::get_if<tools::ReadConfirmation>(&details)) return allowed.covers(readKeys(*read));
  if (auto* mcp = std::get_if<tools::McpConfirmation>(&details)) {
    return allowed.contains({ApprovalKind::mcpServer, mcp->serverName}) ||
           allowed.contains(mcpToolKey(mcp->serverName, mcp->toolName));
  }
  return false;
}

// Settings tools.allowed (or an earlier "always" for the tool) names it; an
// MCP tool may be named the ways its server's tools are spelled.
bool toolAllowed(const ApprovalQuery& query, const ApprovalSet& allowed) {
  if (allowed.contains({ApprovalKind::tool, query.toolName})) return true;
  if (!query.calledAs.empty() && allowed.contains({ApprovalKind::tool, query.calledAs})) return true;
  if (!query.source || query.source->group != tools::ToolSource::Group::mcp) return false;
  const auto names = allowed.valuesOf(ApprovalKind::tool);
  return std::any_of(names.begin(), names.end(), [&](const std::string& entry) {
    return tools::settingNamesTool(entry, query.toolName, *query.source);
  });
}

ApprovalDecision allow() { return {Decision::allow, {}, {}}; }
ApprovalDecision ask(std::string why = {}) { return {Decision::ask, {}, std::move(why)}; }
ApprovalDecision allowIf(bool allowed) { return allowed ? allow() : ask(); }

ApprovalDecision refusedByExclusion(const tools::ExecConfirmation& exec) {
  if (!exec.runsUnseen.empty()) {
    const std::string why = "the settings exclude commands (tools.exclude), and this line may run commands it "
                            "does not name (" + exec.runsUnseen + "), so the exclusions cannot be checked.";
    return {Decision::deny, "Refused: " + why + " Run the commands directly instead.", "Not run: " + why};
  }
  return {Decision::deny, "Refused: the settings exclude this command (tools.exclude).",
          "Not run: your settings exclude this command (tools.exclude)."};
}

ApprovalDecision refusedByPlanMode() {
  return {Decision::deny,
          "Refused: the session is in plan mode, which allows only read-only tools. "
          "Describe the change instead of making it.",
          "Not run: plan mode allows only read-only tools."};
}

// --- policy rules ---

// The person's own files (user, admin) outrank their answers and settings;
// a workspace's or an extension's rules yield to them.
bool personTier(const PolicyRule& rule) { return rule.origin.tier >= PolicyTier::user; }
bool namesPlan(const PolicyRule& rule) {
  return std::find(rule.modes.begin(), rule.modes.end(), ApprovalMode::plan) != rule.modes.end();
}
bool refusesOrAsks(const PolicyRule& rule) { return rule.decision != PolicyDecision::allow; }
bool refusesCommands(const PolicyRule& rule) { return rule.decision == PolicyDecision::deny && rule.judgesCommands(); }
bool asksCommands(const PolicyRule& rule) { return rule.decision == PolicyDecision::askUser && rule.judgesCommands(); }

// The one of two rules that decides (decidesOver).
const PolicyRule* higher(const PolicyRule* a, const PolicyRule* b) {
  if (!a || !b) return a ? a : b;
  return decidesOver(*b, *a) ? b : a;
}

// Whose rule it is, as the person reads it.
std::string ruleName(const PolicyRule& rule) { return rule.origin.whose() + " " + rule.origin.describe(); }

ApprovalDecision refusedByRule(const PolicyRule& rule, const std::string& why = "") {
  std::string message = rule.denyMessage.empty() ? "" : " " + rule.denyMessage;
  return {Decision::deny, "Refused by policy" + (why.empty() ? "" : " (" + why + ")") + "." + message,
          "Not run: refused by " + ruleName(rule) + (why.empty() ? "" : " (" + why + ")") + "." + message};
}

ApprovalDecision askedByRule(const PolicyRule& rule, const std::string& why = "") {
  return {Decision::ask, {}, "Asked because of " + ruleName(rule) + (why.empty() ? "" : " (" + why + ")") + ".",
          why.empty() ? rule.rank() : kAskedAlways};
}

// Asked whatever was answered before: no "always" would stop the question.
ApprovalDecision askedEveryTime(std::string why) { return {Decision::ask, {}, std::move(why), kAskedAlways}; }

constexpr const char* kUnseen = "this line may run commands it does not name, so the rule cannot be checked";

// Plan mode refuses this call whatever allows it: plan mode is read-only,
// whatever the tool says about confirmation; a think tool (write_todos)
// changes nothing outside the session, nor does asking the person (ask_user)
// or leaving plan mode (exit_plan_mode asks); a sub-agent (invoke_agent) runs
// in the session's mode itself. Its plans are the one thing it writes (Gemini
// CLI's plan.toml).
bool planRefuses(ApprovalMode mode, const ApprovalQuery& query) {
  if (mode != ApprovalMode::plan) return false;
  if (query.details) {
    if (auto* exec = std::get_if<tools::ExecConfirmation>(query.details)) return !exec->readOnly;
    if (auto* edit = std::get_if<tools::EditConfirmation>(query.details); edit && edit->planFile) return false;
  }
  return !tools::isReadOnlyKind(query.kind) && query.kind != tools::Kind::think &&
         query.kind != tools::Kind::communicate && query.kind != tools::Kind::switch_mode &&
         query.kind != tools::Kind::agent;
}

bool anyRule(const PolicyList& rules, bool (*test)(const PolicyRule&) = nullptr) {
  return std::any_of(rules.begin(), rules.end(), [&](const auto& set) {
    return set && std::any_of(set->rules.begin(), set->rules.end(), [&](const PolicyRule& r) { return !test || test(r); });
  });
}
// A policy file left out for a problem might refuse the call: nothing runs
// unasked until it is fixed.
const std::string* unreadPolicyFile(const PolicyList& rules) {
  for (const auto& set : rules) {
    if (set && !set->unread.empty()) return &set->unread.front();
  }
  return nullptr;
}

ApprovalDecision askedForUnreadPolicy(const std::string& file) {
  return {Decision::ask, {},
          "Asked because Lathe could not read the policy file " + file +
              ": its rules might refuse this. Until it is fixed, everything asks first.",
          kAskedAlways};
}

bool hasPattern(const PolicyRule& rule) { return rule.argsPattern.has_value(); }

// The call as the rules see it; the strings it points to live in here. The
// arguments' stable JSON (a copy of a whole file for write_file) is made only
// when a rule has a pattern to match it with.
class RuleView {
 public:
  RuleView(ApprovalMode mode, const ApprovalQuery& query, const SessionApprovals& approvals)
      : names_(policyNames(query.toolName, query.calledAs)),
        args_(anyRule(approvals.policies, hasPattern) ? stableArgs(query.args) : "{}") {
    if (query.source && !query.source->annotations.empty()) {
      if (auto parsed = json::parse(query.source->annotations); parsed && parsed->IsObject()) {
        annotations_ = std::move(parsed).value();
      }
    }
    call_.names = names_;
    call_.source = query.source;
    call_.stableArgs = args_;
    call_.annotations = annotations_.IsObject() ? &annotations_ : nullptr;
    call_.mode = mode;
    call_.interactive = approvals.interactive;
    call_.subagent = query.subagent;
  }
  const PolicyCall& whole() const { return call_; }
  // One command of a shell line, as if it were the whole line.
  PolicyCall command(const std::vector<std::string>& words, std::string& argsOut) const {
    PolicyCall one = call_;
    argsOut = stableArgs(json::buildObject([&](json::Writer& w) { json::put(w, "command", tools::joinShellWords(words)); }));
    one.stableArgs = argsOut;
    one.commandWords = &words;
    return one;
  }
  PolicyCall unseen() const {
    PolicyCall any = call_;
    any.unseenCommand = true;
    return any;
  }

 private:
  std::vector<std::string> names_;
  std::string args_;
  json::Document annotations_;
  PolicyCall call_;
};

// What a rule's allow means for a call the rules alone would let run: plan
// mode, edits to files that change how tools run and reads of what the
// person keeps from the model are still asked about (or refused).
ApprovalDecision allowedByRule(const PolicyRule& rule, ApprovalMode mode, const ApprovalQuery& query,
                               const ApprovalSet& allowed) {
  if (planRefuses(mode, query) && !namesPlan(rule)) return refusedByPlanMode();
  if (!query.details || mode == ApprovalMode::yolo) return allow();
  if (auto* edit = std::get_if<tools::EditConfirmation>(query.details); edit && !edit->sensitive.empty()) {
    return askedEveryTime("Asked even when edits are allowed: " + edit->sensitive + ".");
  }
  if (std::holds_alternative<tools::ReadConfirmation>(*query.details)) return allowIf(remembered(*query.details, allowed));
  return allow();
}

ApprovalDecision byRule(const PolicyRule& rule, ApprovalMode mode, const ApprovalQuery& query, const ApprovalSet& allowed) {
  switch (rule.decision) {
    case PolicyDecision::deny: return refusedByRule(rule);
    case PolicyDecision::askUser:
      // A question must not become a way around plan mode.
      if (planRefuses(mode, query) && !namesPlan(rule)) return refusedByPlanMode();
      return askedByRule(rule);
    case PolicyDecision::allow: return allowedByRule(rule, mode, query, allowed);
  }
  return ask();
}

// --- the mode and the session's answers, when no rule decides ---

ApprovalDecision byModeTool(ApprovalMode mode, const ApprovalQuery& query, const ApprovalSet& allowed) {
  if (planRefuses(mode, query)) return refusedByPlanMode();
  if (!query.details) return allow();
  // A plan runs unasked, but is asked about when a workspace's settings put the plans folder in it.
  if (auto* edit = std::get_if<tools::EditConfirmation>(query.details); edit && edit->planFile && mode == ApprovalMode::plan) {
    return edit->sensitive.empty() ? allow() : askedEveryTime("A plan written inside the workspace: " + edit->sensitive + ".");
  }
  if (mode == ApprovalMode::yolo) return allow();
  // An edit to a file that changes how tools run is always asked about.
  if (auto* edit = std::get_if<tools::EditConfirmation>(query.details); edit && !edit->sensitive.empty()) {
    return askedEveryTime("Asked even when edits are allowed: " + edit->sensitive + ".");
  }
  // Allowing a read tool covers the workspace's files, not what the person
  // keeps from the model: only an answer about these very files does.
  if (std::holds_alternative<tools::ReadConfirmation>(*query.details)) return allowIf(remembered(*query.details, allowed));
  if (toolAllowed(query, allowed)) return allow();
  // Edits are confined to the workspace by the tools, so autoEdit may allow them.
  if (mode == ApprovalMode::autoEdit && std::holds_alternative<tools::EditConfirmation>(*query.details)) return allow();
  return allowIf(remembered(*query.details, allowed));
}

ApprovalDecision byModeShell(ApprovalMode mode, const ApprovalQuery& query, const tools::ExecConfirmation& exec,
                             const ApprovalSet& allowed) {
  // A command line whose whole parse only reads runs without a question, but
  // sealed (read-only sandbox) unless the person stands behind it: yolo, the
  // tool allowed, or its commands allowed (settings or an "always").
  if (exec.readOnly && exec.understood && !exec.commands.empty()) {
    bool person = mode == ApprovalMode::yolo || allowed.contains({ApprovalKind::tool, query.toolName}) ||
                  remembered(*query.details, allowed);
    return person ? allow() : ApprovalDecision{Decision::allowSealed, {}, {}};
  }
  if (planRefuses(mode, query)) return refusedByPlanMode();
  if (mode == ApprovalMode::yolo) return allow();
  if (toolAllowed(query, allowed)) return allow();
  return allowIf(remembered(*query.details, allowed));
}

// A call that is no shell line: the rule that decides, unless the session's
// answers or settings allow the call and the rule is not the person's own.
ApprovalDecision decideTool(ApprovalMode mode, const ApprovalQuery& query, const SessionApprovals& approvals) {
  const ApprovalSet& allowed = approvals.allowed;
  if (anyRule(approvals.policies)) {
    RuleView view(mode, query, approvals);
    if (const PolicyRule* rule = topRule(approvals.policies, view.whole())) {
      bool read = query.details && std::holds_alternative<tools::ReadConfirmation>(*query.details);
      bool answered = read ? remembered(*query.details, allowed)
                           : toolAllowed(query, allowed) || (query.details && remembered(*query.details, allowed));
      if (personTier(*rule) || !answered) return byRule(*rule, mode, query, allowed);
    }
  }
  return byModeTool(mode, query, allowed);
}

// How one command of a line stands.
struct CommandVerdict {
  const PolicyRule* rule = nullptr;  // the rule that decides it, if any
  bool allowed = false;              // by that rule, or by the session's answers and settings
};

struct LineVerdict {
  std::vector<CommandVerdict> commands;
  bool hidden = false;  // the line may run commands nobody can see
};

// Each command the analysis found, judged by the rules that see it (its
// words, and its text as if it were the whole line; a command spelled by
// path also by its bare name, for rules that refuse or ask) and by the rule
// that refuses or asks about the whole line's text, against the session's
// answers and settings for it.
LineVerdict judgeCommands(const RuleView& view, const PolicyList& rules, const PolicyRule* wholeLine,
                          const ApprovalQuery& query, const tools::ExecConfirmation& exec, const ApprovalSet& allowed) {
  LineVerdict out;
  out.hidden = !exec.parsed || !exec.understood || !exec.runsUnseen.empty() || exec.commands.empty();
  const bool toolKey = toolAllowed(query, allowed);
  const Prefixes prefixes = prefixesIn(allowed);
  for (const auto& words : exec.commands) {
    if (words.empty()) {
      out.hidden = true;
      continue;
    }
    std::string args, bareArgs;
    const PolicyRule* rule = higher(topRule(rules, view.command(words, args)), wholeLine);
    if (size_t slash = words.front().find_last_of('/'); slash != std::string::npos) {
      std::vector<std::string> bare = words;
      bare.front() = bare.front().substr(slash + 1);
      rule = higher(rule, topRule(rules, view.command(bare, bareArgs), refusesOrAsks));
    }
    bool keyed = toolKey || allowed.contains({ApprovalKind::command, words.front()}) || anyPrefix(words, prefixes);
    if (rule && !personTier(*rule) && keyed) rule = nullptr;  // the person's answer stands over it
    out.commands.push_back({rule, rule ? rule->decision == PolicyDecision::allow : keyed});
  }
  return out;
}

// The highest rule of a kind among the commands' (or, for a line with no
// command to see, the whole line's, unless it yields to the tool allowed).
const PolicyRule* decidedBy(PolicyDecision decision, const LineVerdict& line, const PolicyRule* wholeLine,
                            bool toolAllowed) {
  const PolicyRule* found = nullptr;
  for (const auto& v : line.commands) {
    if (v.rule && v.rule->decision == decision) found = higher(found, v.rule);
  }
  if (!found && line.commands.empty() && wholeLine && wholeLine->decision == decision &&
      (personTier(*wholeLine) || !toolAllowed)) {
    found = wholeLine;
  }
  return found;
}

// A shell line, command by command: any refused command refuses the line,
// any asked one asks, and only a line whose every command is allowed (some
// by rules) runs by the rules. A line that hides commands cannot pass a rule
// that judges commands: one that refuses refuses it, one that asks asks.
ApprovalDecision decideShell(ApprovalMode mode, const ApprovalQuery& query, const tools::ExecConfirmation& exec,
                             const SessionApprovals& approvals) {
  const ApprovalSet& allowed = approvals.allowed;
  if (!anyRule(approvals.policies)) return byModeShell(mode, query, exec, allowed);
  RuleView view(mode, query, approvals);
  const PolicyList& rules = approvals.policies;
  const PolicyRule* wholeLine = topRule(rules, view.whole(), refusesOrAsks);
  const LineVerdict line = judgeCommands(view, rules, wholeLine, query, exec, allowed);
  const bool toolKey = toolAllowed(query, allowed);
  if (const PolicyRule* refused = decidedBy(PolicyDecision::deny, line, wholeLine, toolKey)) return refusedByRule(*refused);
  if (line.hidden) {
    if (const PolicyRule* unseen = topRule(rules, view.unseen(), refusesCommands)) return refusedByRule(*unseen, kUnseen);
  }
  if (const PolicyRule* asked = decidedBy(PolicyDecision::askUser, line, wholeLine, toolKey)) {
    return byRule(*asked, mode, query, allowed);
  }
  if (line.hidden) {
    if (const PolicyRule* unseen = topRule(rules, view.unseen(), asksCommands)) {
      return planRefuses(mode, query) ? refusedByPlanMode() : askedByRule(*unseen, kUnseen);
    }
  }
  const auto& verdicts = line.commands;
  bool all = !line.hidden && std::all_of(verdicts.begin(), verdicts.end(), [](const CommandVerdict& v) { return v.allowed; });
  bool byRules = std::any_of(verdicts.begin(), verdicts.end(), [](const CommandVerdict& v) { return v.rule; });
  if (!all || !byRules) return byModeShell(mode, query, exec, allowed);
  // Every command is allowed, some by rules. What the line writes through
  // redirections is covered only by rules that say so, each of them.
  auto everyRule = [&](bool (*test)(const PolicyRule&)) {
    return std::all_of(verdicts.begin(), verdicts.end(), [&](const CommandVerdict& v) { return v.rule && test(*v.rule); });
  };
  if (!exec.writtenFiles.empty() && !everyRule([](const PolicyRule& r) { return r.allowRedirection; })) {
    return byModeShell(mode, query, exec, allowed);
  }
  if (planRefuses(mode, query) && !everyRule(namesPlan)) return refusedByPlanMode();
  return allow();
}

}  // namespace

SessionApprovals configuredApprovals(const std::vector<std::string>& allowed, const std::vector<std::string>& excluded,
                                     const std::vector<std::string>& allowedMcpServers) {
  SessionApprovals approvals;
  for (const auto& server : allowedMcpServers) approvals.allowed.add({ApprovalKind::mcpServer, server});
  for (const auto& entry : allowed) {
    auto prefix = tools::shell::shellPrefixFromSetting(entry);
    if (!prefix.empty()) {
      approvals.allowed.add(shellPrefixKey(prefix));
    } else if (entry.find('(') == std::string::npos) {
      approvals.allowed.add({ApprovalKind::tool, entry});
    }
  }
  for (const auto& entry : excluded) {
    auto prefix = tools::shell::shellPrefixFromSetting(entry);
    if (!prefix.empty()) approvals.excluded.add(shellPrefixKey(prefix));
  }
  return approvals;
}

ApprovalDecision decideApproval(ApprovalMode mode, const ApprovalQuery& query, const SessionApprovals& approvals) {
  const auto* exec = query.details ? std::get_if<tools::ExecConfirmation>(query.details) : nullptr;
  // Excluded commands never run, in any mode.
  if (exec && excludedCommand(*exec, approvals)) return refusedByExclusion(*exec);
  ApprovalDecision decided = exec ? decideShell(mode, query, *exec, approvals) : decideTool(mode, query, approvals);
  if (decided.verdict == Decision::allow || decided.verdict == Decision::allowSealed) {
    if (const std::string* unread = unreadPolicyFile(approvals.policies)) return askedForUnreadPolicy(*unread);
  }
  return decided;
}

ApprovalDecision withinReadOnly(const ApprovalDecision& decided, const ApprovalQuery& query) {
  if (decided.verdict == Decision::deny) return decided;
  const auto* exec = query.details ? std::get_if<tools::ExecConfirmation>(query.details) : nullptr;
  if (exec) {
    if (exec->readOnly && exec->understood && !exec->commands.empty()) return {Decision::allowSealed, {}, {}};
    return {Decision::deny,
            "Refused: this sub-agent is read-only; only command lines that just read run, in a read-only sandbox. "
            "Report what should be run instead.",
            "Not run: a read-only sub-agent runs only command lines that just read."};
  }
  const bool keptFromModel = query.details && std::holds_alternative<tools::ReadConfirmation>(*query.details);
  // A think tool (complete_task) changes nothing outside the conversation.
  const bool reads = tools::isReadOnlyKind(query.kind) || query.kind == tools::Kind::think;
  if (reads && (decided.verdict == Decision::allow || keptFromModel)) return decided;
  return {Decision::deny, "Refused: this sub-agent is read-only. Report the change instead of making it.",
          "Not run: a read-only sub-agent runs only tools that read."};
}

std::vector<ApprovalKey> alwaysKeys(AlwaysScope scope, const ApprovalQuery& query) {
  const tools::ConfirmationDetails* details = query.details;
  switch (scope) {
    case AlwaysScope::tool: return {{ApprovalKind::tool, query.toolName}};
    case AlwaysScope::file:
      if (auto* edit = details ? std::get_if<tools::EditConfirmation>(details) : nullptr) return {editKey(*edit)};
      if (auto* read = details ? std::get_if<tools::ReadConfirmation>(details) : nullptr) return readKeys(*read);
      break;
    case AlwaysScope::allEdits:
      if (details && std::holds_alternative<tools::EditConfirmation>(*details)) return {allEditsKey()};
      break;
    case AlwaysScope::mcpTool:
      if (auto* mcp = details ? std::get_if<tools::McpConfirmation>(details) : nullptr) {
        return {mcpToolKey(mcp->serverName, mcp->toolName)};
      }
      break;
    case AlwaysScope::mcpServer:
      if (auto* mcp = details ? std::get_if<tools::McpConfirmation>(details) : nullptr) {
        return {{ApprovalKind::mcpServer, mcp->serverName}};
      }
      break;
    case AlwaysScope::command:
      if (auto* exec = details ? std::get_if<tools::ExecConfirmation>(details) : nullptr) return commandKeys(*exec);
      break;
  }
  return {};
}

void remember(SessionApprovals& approvals, AlwaysScope scope, const ApprovalQuery& query) {
  approvals.allowed.add(alwaysKeys(scope, query));
}

}  // namespace lathe::engine
