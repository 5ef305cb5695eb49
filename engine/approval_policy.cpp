// Approval decisions.
#include "engine/approval_policy.h"

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

bool remembered(const tools::ConfirmationDetails& details, const ApprovalQuery& query,
                const SessionApprovals& approvals) {
  if (auto* edit = std::get_if<tools::EditConfirmation>(&details)) {
    return approvals.allEdits || approvals.editPaths.count(edit->diff.path) > 0;
  }
  if (auto* exec = std::get_if<tools::ExecConfirmation>(&details)) {
    // Every command inside must be allowed; an empty list means the command
    // could not be understood, and that is never pre-approved.
    if (exec->rootCommands.empty()) return false;
    for (const auto& root : exec->rootCommands) {
      if (!approvals.commands.count(root)) return false;
    }
    return true;
  }
  if (auto* mcp = std::get_if<tools::McpConfirmation>(&details)) {
    return approvals.mcpServers.count(mcp->serverName) > 0 ||
           approvals.mcpTools.count(mcp->serverName + "__" + mcp->toolName) > 0;
  }
  return approvals.tools.count(query.toolName) > 0;
}

}  // namespace

Decision decideApproval(ApprovalMode mode, const ApprovalQuery& query, const SessionApprovals& approvals) {
  // Plan mode is read-only, whatever the tool says about confirmation.
  if (mode == ApprovalMode::plan && !tools::isReadOnlyKind(query.kind)) return Decision::deny;
  if (!query.details) return Decision::allow;
  if (mode == ApprovalMode::yolo) return Decision::allow;
  // Edits are confined to the workspace by the tools, so autoEdit may allow them.
  if (mode == ApprovalMode::autoEdit && std::holds_alternative<tools::EditConfirmation>(*query.details)) {
    return Decision::allow;
  }
  return remembered(*query.details, query, approvals) ? Decision::allow : Decision::ask;
}

void remember(SessionApprovals& approvals, AlwaysScope scope, const ApprovalQuery& query) {
  const tools::ConfirmationDetails* details = query.details;
  switch (scope) {
    case AlwaysScope::tool: approvals.tools.insert(query.toolName); break;
    case AlwaysScope::file:
      if (auto* edit = details ? std::get_if<tools::EditConfirmation>(details) : nullptr) {
        approvals.editPaths.insert(edit->diff.path);
      }
      break;
    case AlwaysScope::allEdits: approvals.allEdits = true; break;
    case AlwaysScope::mcpServer:
      if (auto* mcp = details ? std::get_if<tools::McpConfirmation>(details) : nullptr) {
        approvals.mcpServers.insert(mcp->serverName);
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
