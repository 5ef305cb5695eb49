// "Always" answers as Gemini CLI policy rules, the way Gemini CLI 0.61 writes
// them into its auto-saved.toml (decision allow, priority 950, the modes from
// the one answered in up to yolo): commands as a run_shell_command rule with
// their names as commandPrefix, an MCP tool or server as mcpName with its
// toolName (or "*"), a tool by name, and edits to one file as write_file and
// replace with an argsPattern matching exactly that file_path. And any rule,
// said in words for the person. Pure; any thread.
#pragma once

#include <optional>
#include <string>

#include "engine/scheduler/kept_answers.h"
#include "protocol/base/json.h"
#include "protocol/base/result.h"

namespace lathe::engine {

// The [[rule]] table for an answer, as JSON text. An error for keys that
// cannot be kept (all edits, reads of what the person keeps from the model).
Result<std::string> keptRuleFor(const KeptAnswer& answer);

// The argsPattern that matches a call's file_path of exactly `path`.
std::string filePathPattern(const std::string& path);
// The path of a pattern filePathPattern wrote; nullopt for any other pattern.
std::optional<std::string> filePathOfPattern(const std::string& pattern);

// What a rule covers, for the person: "`git`, `ls` (shell commands)",
// "edits to /w/a.txt", "`search` from MCP server github".
std::string describeRule(const PolicyRule& rule);

}  // namespace lathe::engine
