// Whether a tool call may run: a pure function of the approval mode, the call
// and what the person already allowed in this session. Tested as a table.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tools/core/registry.h"
#include "tools/core/tool.h"

namespace lathe::engine {

enum class ApprovalMode { standard, autoEdit, yolo, plan };  // "default" is a keyword
const char* toString(ApprovalMode mode);  // wire ids: default, autoEdit, yolo, plan
std::optional<ApprovalMode> parseApprovalMode(const std::string& id);

// What this session allows without asking: configured (settings) and
// remembered ("allow always" answers, each no wider than what the person saw).
struct SessionApprovals {
  std::set<std::string> tools;      // tool names (info and other confirmations)
  std::set<std::string> editPaths;  // absolute paths
  std::set<std::string> readPaths;  // ignored or secret files the person let the model read
  std::set<std::string> mcpServers;
  std::set<std::string> mcpTools;   // server__tool
  std::set<std::string> commands;   // shell root commands
  // Settings tools.allowed / tools.exclude entries run_shell_command(git status).
  std::vector<std::vector<std::string>> allowedCommandPrefixes;
  std::vector<std::vector<std::string>> excludedCommandPrefixes;
};

// What settings grant every session: tools.allowed names and
// run_shell_command(...) prefixes, tools.exclude run_shell_command(...)
// prefixes, and MCP servers whose calls run unasked (mcp.allowed, and the
// user's servers with trust: true).
SessionApprovals configuredApprovals(const std::vector<std::string>& allowed, const std::vector<std::string>& excluded,
                                     const std::vector<std::string>& allowedMcpServers = {});

// allowSealed: allowed by the read-only judgement alone, with nobody's
// approval; the call runs sealed (a shell line in the read-only sandbox).
enum class Decision { allow, allowSealed, ask, deny };

struct ApprovalQuery {
  std::string toolName;
  tools::Kind kind = tools::Kind::other;
  // What the tool asked to confirm; nullopt when it needs no confirmation.
  const tools::ConfirmationDetails* details = nullptr;
  // Where the tool comes from: settings may name an MCP tool by its server's
  // spelling (server__tool, mcp_server_tool). Null: a built-in.
  const tools::ToolSource* source = nullptr;
};

Decision decideApproval(ApprovalMode mode, const ApprovalQuery& query, const SessionApprovals& approvals);

// How an "allow always" answer widens the session's approvals.
enum class AlwaysScope { tool, file, mcpTool, command };
void remember(SessionApprovals& approvals, AlwaysScope scope, const ApprovalQuery& query);

}  // namespace lathe::engine
