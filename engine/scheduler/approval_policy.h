// Whether a tool call may run: a pure function of the approval mode, the call
// and what the person already allowed in this session. Tested as a table.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/scheduler/approval_key.h"
#include "tools/core/registry.h"
#include "tools/core/tool.h"

namespace lathe::engine {

enum class ApprovalMode { standard, autoEdit, yolo, plan };  // "default" is a keyword
const char* toString(ApprovalMode mode);  // wire ids: default, autoEdit, yolo, plan
std::optional<ApprovalMode> parseApprovalMode(const std::string& id);

// What this session allows without asking, configured (settings) and
// remembered ("allow always" answers, each no wider than what the person
// saw), and the shell commands settings exclude (tools.exclude
// run_shell_command(...) prefixes), which never run.
struct SessionApprovals {
  ApprovalSet allowed;
  ApprovalSet excluded;  // shell-prefix keys
  void add(const SessionApprovals& more) {  // union
    allowed.add(more.allowed);
    excluded.add(more.excluded);
  }
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

// A decision with the words of the rule that made it. deny: what the model
// reads instead of a result, and what the person sees on the call. ask:
// forPerson is shown with the question when the question alone does not say
// why it is asked (empty otherwise). allow: no words.
struct ApprovalDecision {
  Decision verdict = Decision::ask;
  std::string forModel;
  std::string forPerson;
};

struct ApprovalQuery {
  std::string toolName;
  tools::Kind kind = tools::Kind::other;
  // What the tool asked to confirm; nullopt when it needs no confirmation.
  const tools::ConfirmationDetails* details = nullptr;
  // Where the tool comes from: settings may name an MCP tool by its server's
  // spelling (server__tool, mcp_server_tool). Null: a built-in.
  const tools::ToolSource* source = nullptr;
};

ApprovalDecision decideApproval(ApprovalMode mode, const ApprovalQuery& query, const SessionApprovals& approvals);

// A read-only sub-agent's ceiling over a decision: only what reads (and a
// think tool, complete_task) runs; a shell line runs sealed, even one the
// person allowed, and only when its whole parse only reads; anything else is
// refused, never asked about (a question about reading what the person keeps
// from the model stays one).
ApprovalDecision withinReadOnly(const ApprovalDecision& decided, const ApprovalQuery& query);

// How an "allow always" answer widens the session's approvals: the keys of
// what the person was shown (this file, these files, these commands, this
// MCP tool, this tool, or edits like this one to any file), added to what is
// allowed.
enum class AlwaysScope { tool, file, allEdits, mcpTool, mcpServer, command };
std::vector<ApprovalKey> alwaysKeys(AlwaysScope scope, const ApprovalQuery& query);
void remember(SessionApprovals& approvals, AlwaysScope scope, const ApprovalQuery& query);

}  // namespace lathe::engine
