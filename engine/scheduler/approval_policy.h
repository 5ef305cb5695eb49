// Whether a tool call may run: a pure function of the approval mode, the call,
// the policy rules in force (Gemini CLI's policy files and the answers kept
// from earlier sessions) and what the person allowed in this session. Tested
// as a table.
//
// The order: commands settings exclude are refused; then the rules decide,
// before the mode; while a policy file could not be read, whatever would run
// unasked is asked about instead (its rules might have refused it). A rule of the person's own tiers (user, admin) outranks
// their answers in this session and their settings' allowed lists; a rule of
// a workspace or an extension yields to those. A rule's allow never lifts
// plan mode (unless the rule names plan), the question about edits to files
// that change how tools run, or the question about reading what the person
// keeps from the model. A shell line is judged command by command, never by
// its text alone: every command must be allowed, any refused one refuses the
// line, and a line that hides commands cannot pass rules that judge commands.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/scheduler/approval_key.h"
#include "engine/scheduler/approval_mode.h"
#include "engine/scheduler/policy_rule.h"
#include "tools/core/registry.h"
#include "tools/core/tool.h"

namespace lathe::engine {

// What this session allows without asking, configured (settings) and
// remembered ("allow always" answers, each no wider than what the person
// saw), and the shell commands settings exclude (tools.exclude
// run_shell_command(...) prefixes), which never run.
// The policy rules in force come with them, and whether the session can ask
// at all (rules may apply only to sessions that can, or cannot).
struct SessionApprovals {
  ApprovalSet allowed;
  ApprovalSet excluded;  // shell-prefix keys
  PolicyList policies;
  bool interactive = true;
  void add(const SessionApprovals& more) {  // union
    allowed.add(more.allowed);
    excluded.add(more.excluded);
    policies.insert(policies.end(), more.policies.begin(), more.policies.end());
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
  // ask: the rank of the policy rule that asked (PolicyRule::rank); an
  // "always" answer that ranks no higher would not stop the question, so it
  // is not offered. kAskedAlways: nothing stops it (0: no rule asked).
  int askedAt = 0;
};
inline constexpr int kAskedAlways = 1'000'000;

struct ApprovalQuery {
  std::string toolName;  // the tool's own name
  tools::Kind kind = tools::Kind::other;
  // What the tool asked to confirm; nullopt when it needs no confirmation.
  const tools::ConfirmationDetails* details = nullptr;
  // Where the tool comes from: settings may name an MCP tool by its server's
  // spelling (server__tool, mcp_server_tool). Null: a built-in.
  const tools::ToolSource* source = nullptr;
  std::string_view args = "{}";  // the call's arguments as JSON text (rules' argsPattern)
  std::string calledAs{};        // the name the model called it by, when another (an alias)
  std::string subagent{};        // the sub-agent making the call (rules' `subagent`); empty: the session's own
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
