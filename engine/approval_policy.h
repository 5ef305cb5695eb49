// Whether a tool call may run: a pure function of the approval mode, the call
// and what the person already allowed in this session. Tested as a table.
#pragma once

#include <optional>
#include <set>
#include <string>

#include "tools/tool.h"

namespace lathe::engine {

enum class ApprovalMode { standard, autoEdit, yolo, plan };  // "default" is a keyword
const char* toString(ApprovalMode mode);  // wire ids: default, autoEdit, yolo, plan
std::optional<ApprovalMode> parseApprovalMode(const std::string& id);

// "Allow always" answers remembered for one session, each no wider than what
// the person saw when answering.
struct SessionApprovals {
  std::set<std::string> tools;      // tool names (info and other confirmations)
  std::set<std::string> editPaths;  // absolute paths
  bool allEdits = false;
  std::set<std::string> mcpServers;
  std::set<std::string> mcpTools;   // server__tool
  std::set<std::string> commands;   // shell root commands
};

enum class Decision { allow, ask, deny };

struct ApprovalQuery {
  std::string toolName;
  tools::Kind kind = tools::Kind::other;
  // What the tool asked to confirm; nullopt when it needs no confirmation.
  const tools::ConfirmationDetails* details = nullptr;
};

Decision decideApproval(ApprovalMode mode, const ApprovalQuery& query, const SessionApprovals& approvals);

// How an "allow always" answer widens the session's approvals.
enum class AlwaysScope { tool, file, allEdits, mcpServer, mcpTool, command };
void remember(SessionApprovals& approvals, AlwaysScope scope, const ApprovalQuery& query);

}  // namespace lathe::engine
