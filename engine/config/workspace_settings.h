// A workspace's `.gemini/settings.json` applied to one session: each session
// gets its own AgentConfig, the user's with the workspace file merged over it
// (then the --settings file and the command line again, which come last), so
// sessions of one process with different cwds each follow their own
// repository. The programs the file defines are workspace_programs.h's.
//
// A repository must not widen what runs unasked, so its keys are sorted:
//
//   narrowing or tuning: applied without asking
//     model.name, model.contextLimits, model.compressionThreshold,
//     model.disableLoopDetection, model.summarizeToolOutput, tools.core,
//     tools.exclude, tools.truncateToolOutputThreshold, mcp.excluded,
//     context.discoveryMaxDirs,
//     tools.sandbox when it asks for the sandbox (true or a runtime name),
//     tools.sandboxNetwork: false, general.defaultApprovalMode default or plan
//   widening: applied only when the workspace's configuration is consented
//   (the same question and store as its programs; --trust-workspace counts)
//     tools.allowed, general.defaultApprovalMode autoEdit or yolo,
//     mcp.allowed (it also makes those servers' calls run unasked),
//     tools.sandbox: false, tools.sandboxNetwork: true
//     (always treated as widening, whether or not the seal is on: fail closed)
//     `trust` on a workspace's MCP servers (part of the programs' consent text:
//     session_programs.cpp keeps it once allowed)
//   never from a workspace
//     model.provider and model.choices (one provider and picker per process),
//     context.fileName (it also names the global files read from ~/.gemini
//     into the prompt and the one save_memory writes: a repository naming
//     settings.json there would send the person's settings to the model)
//
// The consent text covers the widening keys' values, so changing one asks
// again. Pure functions; any thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/agent_config.h"
#include "engine/config/settings.h"
#include "protocol/base/result.h"

namespace lathe::engine {

struct WorkspaceSettings {
  std::string path;                      // the file
  Settings tuning;                       // the keys applied without asking
  Settings widening;                     // the keys applied only with consent
  std::vector<std::string> wideningKeys;  // their dotted names, in file order of the list above
  std::string wideningText;              // canonical JSON of their values (part of the consent text); empty: none
  std::vector<std::string> processKeys;  // keys a workspace cannot set (model.provider, model.choices, context.fileName)
};

// nullopt when the file is absent or is the user's own (a workspace at the
// home folder). A broken file is an error naming the file and the field.
Result<std::optional<WorkspaceSettings>> readWorkspaceSettings(const std::string& root,
                                                               const std::string& userSettingsPath);

// Sorts one file's settings (already read) into the two kinds.
Result<WorkspaceSettings> classifyWorkspaceSettings(std::string path, Settings all);

// The session's config: `user` with the tuning keys merged over it, the
// widening ones too when `widen`, then the --settings file and the command
// line (user.overrides) again.
Result<AgentConfig> sessionConfigFor(const AgentConfig& user, const WorkspaceSettings& workspace, bool widen);

// Applies the per-session keys of `settings` over `config`, keeping what the
// command line pinned. Used for the workspace file and the overrides.
Status applySessionSettings(AgentConfig& config, const Settings& settings);

// What the person is told about widening keys left out: one line.
std::string ignoredNotice(const WorkspaceSettings& workspace);

}  // namespace lathe::engine
