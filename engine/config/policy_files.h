// Gemini CLI's policy files, read as Gemini CLI 0.61 reads them: every
// `*.toml` file of a policy folder (or one named file), each a list of
// `[[rule]]` tables (toolName, mcpName, commandPrefix, commandRegex,
// argsPattern, decision, priority, modes, interactive, toolAnnotations,
// allowRedirection, denyMessage, subagent, name), into rules of the folder's
// tier. A file with any problem is left out whole (nothing of it half
// applies), the problem is reported as "file:line: key: problem" and the file
// is named in the rules' `unread` (so calls that would run unasked are asked
// about until it is fixed); the other files still count. Where Lathe is stricter than Gemini CLI it says
// so: an unknown key is a problem (a misspelt commandPrefix would otherwise
// widen an allow rule to every command). Reads files; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/scheduler/policy_rule.h"
#include "protocol/base/result.h"

namespace lathe::engine {

// One place rules come from: a folder (its .toml files, in name order) or a
// single .toml file, with the tier its rules take.
struct PolicySource {
  std::string path;
  PolicyTier tier = PolicyTier::user;
  std::string owner;  // the extension that brought it; empty for the person's own
  // Files of this source to leave to someone else (the kept answers' file,
  // read live by its store).
  std::vector<std::string> skip;
};

struct LoadedPolicies {
  PolicyRules rules;
  std::vector<std::string> problems;  // one line per file left out (or part of it ignored)
};

// The rules of one policy file's text.
Result<PolicyRules> parsePolicyFile(std::string_view text, const std::string& path, PolicyTier tier,
                                    const std::string& owner = "");

// Every source in order; a missing folder is no problem.
LoadedPolicies readPolicySources(const std::vector<PolicySource>& sources);

// The .toml files a source names, in order (empty when it is missing).
std::vector<std::string> policyFilesOf(const PolicySource& source);

// Gemini CLI's guard against patterns that could take very long to match
// (nested quantifiers, more than 2048 characters): such patterns are refused.
bool safePattern(std::string_view pattern);

}  // namespace lathe::engine
