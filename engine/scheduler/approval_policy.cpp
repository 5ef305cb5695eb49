// Approval decisions.
#include "engine/scheduler/approval_policy.h"

#include <algorithm>

#include "tools/shell/shell_analysis.h"

namespace lathe::engine {

const char* toString(ApprovalMode mode) {
  switch (mode) {
    case ApprovalMode::standard: return "default";
    case ApprovalMode::autoEdit: return "autoEdit";
    case ApprovalMode::yolo: return "yolo";
    case ApprovalMode::plan: return "plan";
  }
  return "default";
}

std::optional<ApprovalMode> parseApprovalMode(const std::string& id) {
  if (id == "default") return ApprovalMode::standard;
  if (id == "autoEdit" || id == "auto_edit") return ApprovalMode::autoEdit;
  if (id == "yolo") return ApprovalMode::yolo;
  if (id == "plan") return ApprovalMode::plan;
  return std::nullopt;
}

namespace {

bool startsWith(const std::vector<std::string>& words, const std::vector<std::string>& prefix) {
  if (prefix.empty() || prefix.size() > words.size()) return false;
  return std::equal(prefix.begin(), prefix.end(), words.begin());
}

bool anyPrefix(const std::vector<std::string>& words, const std::vector<std::vector<std::string>>& prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](const auto& p) { return startsWith(words, p); });
}

// With exclusions configured, a line must show every command it runs: one
// that did not parse, or runs a computed command name, is refused. A command
// spelled by path (/bin/rm for rm) is caught too: refusing more is the safe side.
bool excludedCommand(const tools::ExecConfirmation& exec, const SessionApprovals& approvals) {
  if (approvals.excludedCommandPrefixes.empty()) return false;
  // A line the analysis cannot see into (eval of computed text, env -S, a
  // shell reading a pipe, sed's e command) could run an excluded command
  // unseen: refused, never asked (an approval would run it).
  if (!exec.parsed || !exec.understood || !exec.runsUnseen.empty()) return true;
  return std::any_of(exec.commands.begin(), exec.commands.end(), [&](std::vector<std::string> words) {
    if (words.empty()) return true;
    words.front() = words.front().substr(words.front().find_last_of('/') + 1);
    return anyPrefix(words, approvals.excludedCommandPrefixes);
  });
}

bool remembered(const tools::ConfirmationDetails& details, const SessionApprovals& approvals) {
  if (auto* edit = std::get_if<tools::EditConfirmation>(&details)) {
    return approvals.editPaths.count(edit->diff.path) > 0;
  }
  if (auto* exec = std::get_if<tools::ExecConfirmation>(&details)) {
    // Every command inside must be allowed, by its name or a configured
    // prefix; an empty list means the line could not be understood, and that
    // is never pre-approved. Allowing a command never covers what the line
    // writes through redirections: that is asked about.
    if (!exec->understood || exec->commands.empty() || !exec->writtenFiles.empty()) return false;
    return std::all_of(exec->commands.begin(), exec->commands.end(), [&](const auto& words) {
      return (!words.empty() && approvals.commands.count(words.front()) > 0) ||
             anyPrefix(words, approvals.allowedCommandPrefixes);
    });
  }
  if (auto* read = std::get_if<tools::ReadConfirmation>(&details)) {
    return !read->files.empty() && std::all_of(read->files.begin(), read->files.end(), [&](const auto& file) {
      return approvals.readPaths.count(file.path) > 0;
    });
  }
  if (auto* mcp = std::get_if<tools::McpConfirmation>(&details)) {
    return approvals.mcpServers.count(mcp->serverName) > 0 ||
           approvals.mcpTools.count(mcp->serverName + "__" + mcp->toolName) > 0;
  }
  return false;
}

// Settings tools.allowed (or an earlier "always" for the tool) names it; an
// MCP tool may be named the ways its server's tools are spelled.
bool toolAllowed(const ApprovalQuery& query, const SessionApprovals& approvals) {
  if (approvals.tools.count(query.toolName)) return true;
  if (!query.source || query.source->group != tools::ToolSource::Group::mcp) return false;
  return std::any_of(approvals.tools.begin(), approvals.tools.end(), [&](const std::string& entry) {
    return tools::settingNamesTool(entry, query.toolName, *query.source);
  });
}

}  // namespace

SessionApprovals configuredApprovals(const std::vector<std::string>& allowed, const std::vector<std::string>& excluded,
                                     const std::vector<std::string>& allowedMcpServers) {
  SessionApprovals approvals;
  approvals.mcpServers.insert(allowedMcpServers.begin(), allowedMcpServers.end());
  for (const auto& entry : allowed) {
    auto prefix = tools::shell::shellPrefixFromSetting(entry);
    if (!prefix.empty()) {
      approvals.allowedCommandPrefixes.push_back(std::move(prefix));
    } else if (entry.find('(') == std::string::npos) {
      approvals.tools.insert(entry);
    }
  }
  for (const auto& entry : excluded) {
    auto prefix = tools::shell::shellPrefixFromSetting(entry);
    if (!prefix.empty()) approvals.excludedCommandPrefixes.push_back(std::move(prefix));
  }
  return approvals;
}

Decision decideApproval(ApprovalMode mode, const ApprovalQuery& query, const SessionApprovals& approvals) {
  const auto* exec = query.details ? std::get_if<tools::ExecConfirmation>(query.details) : nullptr;
  // Excluded commands never run, in any mode.
  if (exec && excludedCommand(*exec, approvals)) return Decision::deny;
  // A command line whose whole parse only reads runs without a question, but
  // sealed (read-only sandbox) unless the person stands behind it: yolo, the
  // tool allowed, or its commands allowed (settings or an "always").
  if (exec && exec->readOnly && exec->understood && !exec->commands.empty()) {
    bool person = mode == ApprovalMode::yolo || approvals.tools.count(query.toolName) > 0 ||
                  remembered(*query.details, approvals);
    return person ? Decision::allow : Decision::allowSealed;
  }
  // Plan mode is read-only, whatever the tool says about confirmation; a
  // think tool (write_todos) changes nothing outside the session.
  if (mode == ApprovalMode::plan && !tools::isReadOnlyKind(query.kind) && query.kind != tools::Kind::think) {
    return Decision::deny;
  }
  if (!query.details) return Decision::allow;
  if (mode == ApprovalMode::yolo) return Decision::allow;
  // An edit to a file that changes how tools run is always asked about.
  if (auto* edit = std::get_if<tools::EditConfirmation>(query.details); edit && !edit->sensitive.empty()) {
    return Decision::ask;
  }
  // Allowing a read tool covers the workspace's files, not what the person
  // keeps from the model: only an answer about these very files does.
  if (std::holds_alternative<tools::ReadConfirmation>(*query.details)) {
    return remembered(*query.details, approvals) ? Decision::allow : Decision::ask;
  }
  if (toolAllowed(query, approvals)) return Decision::allow;
  // Edits are confined to the workspace by the tools, so autoEdit may allow them.
  if (mode == ApprovalMode::autoEdit && std::holds_alternative<tools::EditConfirmation>(*query.details)) {
    return Decision::allow;
  }
  return remembered(*query.details, approvals) ? Decision::allow : Decision::ask;
}

void remember(SessionApprovals& approvals, AlwaysScope scope, const ApprovalQuery& query) {
  const tools::ConfirmationDetails* details = query.details;
  switch (scope) {
    case AlwaysScope::tool: approvals.tools.insert(query.toolName); break;
    case AlwaysScope::file:
      if (auto* edit = details ? std::get_if<tools::EditConfirmation>(details) : nullptr) {
        approvals.editPaths.insert(edit->diff.path);
      }
      if (auto* read = details ? std::get_if<tools::ReadConfirmation>(details) : nullptr) {
        for (const auto& file : read->files) approvals.readPaths.insert(file.path);
      }
      break;
    case AlwaysScope::mcpTool:
      if (auto* mcp = details ? std::get_if<tools::McpConfirmation>(details) : nullptr) {
        approvals.mcpTools.insert(mcp->serverName + "__" + mcp->toolName);
      }
      break;
    case AlwaysScope::command:
      if (auto* exec = details ? std::get_if<tools::ExecConfirmation>(details) : nullptr) {
        for (const auto& root : exec->rootCommands) approvals.commands.insert(root);
      }
      break;
  }
}

}  // namespace lathe::engine
