// A workspace's `.gemini/settings.json` applied to one session: each session
// gets its own AgentConfig, the user's with the workspace file merged over it
// (then the --settings file and the command line again, which come last), so
// sessions of one process with different cwds each follow their own
// repository. The programs the file defines are workspace_programs.h's.
//
// A repository must not widen what runs unasked, so its keys are sorted by
// their rows in settings_table.h: tuning keys (and widening keys whose value
// only narrows, e.g. tools.sandbox: true) apply without asking; widening ones
// only when the workspace's configuration is consented (the same question
// and store as its programs; --trust-workspace counts); the person's own keys
// never (some are told, see SettingKey::toldInWorkspace). `trust` on a
// workspace's MCP servers is part of the programs' consent text
// (session_programs.cpp keeps it once allowed).
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
  std::vector<std::string> wideningKeys;  // their dotted names, in table order
  std::string wideningText;              // canonical JSON of their values (part of the consent text); empty: none
  std::vector<std::string> processKeys;  // the person's keys it set that the person is told were ignored
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

// What the person is told when they allow widening `keys` at a session's
// first turn: those that apply only from the next session; empty: none.
std::string laterWideningNotice(const std::vector<std::string>& keys);

}  // namespace lathe::engine
