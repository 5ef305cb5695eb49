// Approval decisions.
#include "engine/scheduler/approval_policy.h"

#include <algorithm>

#include "protocol/base/enum_names.h"
#include "tools/shell/shell_analysis.h"

namespace lathe::engine {

namespace {

// Wire ids; "auto_edit" is Gemini CLI's spelling, read but never written.
constexpr EnumName<ApprovalMode> kApprovalModes[] = {
    {ApprovalMode::standard, "default"}, {ApprovalMode::autoEdit, "autoEdit"}, {ApprovalMode::autoEdit, "auto_edit"},
    {ApprovalMode::yolo, "yolo"},        {ApprovalMode::plan, "plan"},
};

}  // namespace

const char* toString(ApprovalMode mode) { return nameOf(kApprovalModes, mode); }

std::optional<ApprovalMode> parseApprovalMode(const std::string& id) { return valueOf(kApprovalModes, id); }

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
  const ApprovalSet& allowed = approvals.allowed;
  const auto* exec = query.details ? std::get_if<tools::ExecConfirmation>(query.details) : nullptr;
  // Excluded commands never run, in any mode.
  if (exec && excludedCommand(*exec, approvals)) return refusedByExclusion(*exec);
  // A command line whose whole parse only reads runs without a question, but
  // sealed (read-only sandbox) unless the person stands behind it: yolo, the
  // tool allowed, or its commands allowed (settings or an "always").
  if (exec && exec->readOnly && exec->understood && !exec->commands.empty()) {
    bool person = mode == ApprovalMode::yolo || allowed.contains({ApprovalKind::tool, query.toolName}) ||
                  remembered(*query.details, allowed);
    return person ? allow() : ApprovalDecision{Decision::allowSealed, {}, {}};
  }
  // Plan mode is read-only, whatever the tool says about confirmation; a
  // think tool (write_todos) changes nothing outside the session, and a
  // sub-agent (invoke_agent) runs in the session's mode itself.
  if (mode == ApprovalMode::plan && !tools::isReadOnlyKind(query.kind) && query.kind != tools::Kind::think &&
      query.kind != tools::Kind::agent) {
    return refusedByPlanMode();
  }
  if (!query.details) return allow();
  if (mode == ApprovalMode::yolo) return allow();
  // An edit to a file that changes how tools run is always asked about.
  if (auto* edit = std::get_if<tools::EditConfirmation>(query.details); edit && !edit->sensitive.empty()) {
    return ask("Asked even when edits are allowed: " + edit->sensitive + ".");
  }
  // Allowing a read tool covers the workspace's files, not what the person
  // keeps from the model: only an answer about these very files does.
  if (std::holds_alternative<tools::ReadConfirmation>(*query.details)) return allowIf(remembered(*query.details, allowed));
  if (toolAllowed(query, allowed)) return allow();
  // Edits are confined to the workspace by the tools, so autoEdit may allow them.
  if (mode == ApprovalMode::autoEdit && std::holds_alternative<tools::EditConfirmation>(*query.details)) return allow();
  return allowIf(remembered(*query.details, allowed));
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
