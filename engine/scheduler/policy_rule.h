// Gemini CLI's policy rules, as read from its TOML policy files
// (engine/config/policy_files.h), and how one rule matches one call. A rule
// names tools (with wildcards), an MCP server, shell command prefixes or a
// pattern over the call's arguments, the approval modes it applies in, and a
// decision: allow, deny or ask_user. Its rank is Gemini CLI's priority
// arithmetic, tier + priority/1000, kept exact as tier*1000 + priority: any
// rule of a higher tier outranks every rule of a lower one. Values; any thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/scheduler/approval_mode.h"
#include "protocol/base/regex.h"
#include "tools/core/registry.h"

namespace lathe::engine {

// Gemini CLI's tiers, lowest first; the numbers are its tier bases.
enum class PolicyTier { builtin = 1, extension = 2, workspace = 3, user = 4, admin = 5 };
const char* toString(PolicyTier tier);

enum class PolicyDecision { allow, deny, askUser };
const char* toString(PolicyDecision decision);  // allow, deny, ask_user (the files' spelling)
std::optional<PolicyDecision> parsePolicyDecision(std::string_view text);

// Where a rule was written, for the person: which file, which rule.
struct PolicyOrigin {
  PolicyTier tier = PolicyTier::user;
  std::string file;   // the policy file's path
  int line = 0;       // the line of its [[rule]] header (0: unknown)
  int number = 0;     // 1-based, in the file's order
  std::string owner;  // the extension that brought it; empty for the person's own files
  std::string name;   // the rule's own `name`, when it has one
  bool kept = false;  // an "always" answer kept from an earlier session
  // "rule 2 (line 7) of /home/me/.gemini/policies/git.toml".
  std::string describe() const;
  // Whose rule it is: "your policy", "this workspace's policy", "extension X's policy".
  std::string whose() const;
};

struct PolicyRule {
  // Tool names as Gemini CLI compares them: built-in names, "*",
  // "mcp_<server>_<tool>", "mcp_<server>_*", "mcp_*", other names with
  // '*' wildcards. A rule's mcpName is already folded in (mcpName "github",
  // toolName "search" reads "mcp_github_search").
  std::vector<std::string> toolNames;
  std::optional<std::string> mcpName;   // "*": any MCP server
  std::optional<std::string> subagent;  // only calls this sub-agent makes
  // Shell commands whose words start with one of these, word for word.
  std::vector<std::vector<std::string>> commandPrefixes;
  // Over the call's arguments as Gemini CLI's stable JSON (keys sorted, each
  // top-level member between NUL characters); commandRegex is folded in as
  // "\"command\":\"" + its pattern.
  std::optional<Regex> argsPattern;
  std::map<std::string, std::string> toolAnnotations;  // key -> JSON value text, all must be present
  PolicyDecision decision = PolicyDecision::askUser;
  int priority = 0;                  // 0..999, as written
  std::vector<ApprovalMode> modes;   // empty: every mode
  std::optional<bool> interactive;   // set: only when the session can (not) ask
  bool allowRedirection = false;     // its allow covers lines that write files through redirections
  std::string denyMessage;
  PolicyOrigin origin;
  std::string asWritten;  // the rule's table as JSON text, as the file has it

  int rank() const { return static_cast<int>(origin.tier) * 1000 + priority; }
  // A condition on what a shell line runs (prefix or pattern).
  bool judgesCommands() const { return !commandPrefixes.empty() || argsPattern.has_value(); }
};

// The rules of one source (a tier's files, the kept answers), in file order.
struct PolicyRules {
  std::vector<PolicyRule> rules;
  // Files of the source left out for a problem: their rules might refuse
  // what is called, so while any is, whatever would run unasked is asked
  // about (fail closed).
  std::vector<std::string> unread;
};
using PolicyList = std::vector<std::shared_ptr<const PolicyRules>>;

// One call as the rules see it. A shell line is seen once whole (commandWords
// null) and once per command it runs (commandWords set, stableArgs as if that
// command were the whole line), as Gemini CLI checks each sub-command.
struct PolicyCall {
  std::vector<std::string> names;  // the canonical name, the name called, legacy aliases
  const tools::ToolSource* source = nullptr;  // null: a built-in
  std::string_view stableArgs;
  const std::vector<std::string>* commandWords = nullptr;
  const json::Value* annotations = nullptr;   // an MCP tool's annotations object
  ApprovalMode mode = ApprovalMode::standard;
  bool interactive = true;
  std::string_view subagent;  // the sub-agent making the call; empty: the main agent
  // The line may run a command nobody can see: a rule's conditions on
  // commands (prefixes, patterns) count as met, since that command could.
  bool unseenCommand = false;
};

// Gemini CLI's stable JSON of a call's arguments: keys sorted at every level,
// each top-level member framed by NUL characters ({\0"a":1\0,\0"b":2\0}).
std::string stableArgs(const json::Value& args);
std::string stableArgs(std::string_view argsJson);  // "{}" when not an object

// A string as JavaScript's JSON.stringify writes it (what stableArgs holds).
std::string jsString(std::string_view text);
// Gemini CLI's escapeRegex: every character a pattern could read specially,
// and blanks and quotes, behind a backslash.
std::string escapeRegex(std::string_view text);

// The names a call is known by: `name`, the name it was called by, and the
// legacy names Gemini CLI keeps for it (search_file_content for grep_search).
std::vector<std::string> policyNames(const std::string& name, const std::string& calledAs);

bool ruleMatches(const PolicyRule& rule, const PolicyCall& call);

// Whether `a` decides over `b` when both match: the higher rank, and
// between equal ranks a refusal, then a question (the safe side). A kept
// answer never decides over a refusal or a question of the person's own
// files (user, admin), whatever its rank: "always allow rm" must not undo
// the person's rule against "rm -rf" (in Gemini CLI it would, at priority
// 950 over theirs).
bool decidesOver(const PolicyRule& a, const PolicyRule& b);

// The rule that decides the call: the one that decides over every other
// that matches (decidesOver). Null: none.
// `only`, when set, keeps the rules it accepts.
const PolicyRule* topRule(const PolicyList& rules, const PolicyCall& call,
                          bool (*only)(const PolicyRule&) = nullptr);

}  // namespace lathe::engine
