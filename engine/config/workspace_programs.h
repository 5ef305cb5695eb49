// What a workspace's `.gemini/settings.json` would start: its MCP servers,
// discovery commands and hooks, and the exact text the person's consent covers.
// Read when a session is created; started only after consent
// (engine/agent/workspace_consent.h). Any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/config/hook_settings.h"
#include "engine/config/program_settings.h"
#include "protocol/base/result.h"

namespace lathe::engine {

// A workspace's sub-agent (.gemini/agents/) whose tools could run programs:
// consent covers its whole file, so a changed file asks again.
struct WorkspaceAgent {
  std::string name;
  std::string path;
  std::string tools;  // as the question lists them
  std::string text;   // the file
};

// A workspace's agent skill (.gemini/skills, .agents/skills): its
// instructions reach the model, so consent covers what it says (a changed
// skill asks again), as Gemini CLI reads them only in trusted folders.
struct WorkspaceSkill {
  std::string name;
  std::string path;  // its SKILL.md
  std::string text;  // name, description and instructions, as the model gets them
};

struct WorkspacePrograms {
  std::string settingsPath;  // the file they come from
  // What consent is given to: programSettingsText, then (each on a line of
  // its own, when there are any) the hooks as written and the widening
  // settings' text (workspace_settings.h), so changing any asks again.
  std::string text;
  ProgramSettings programs;  // servers with origin workspaceSettings
  HookSet hooks;             // origin workspace; its problems are told whatever the answer
  std::string widening;      // the settings that let more run unasked, as JSON; empty: none
  std::vector<WorkspaceAgent> agents;  // sub-agents that could run programs
  std::vector<WorkspaceSkill> skills;  // agent skills
  std::string policies;      // its policy rules that let more run unasked, as the person reads them; empty: none
  // Whether anything would run (servers, discovery, hooks), beyond widening settings.
  bool startsPrograms() const { return !programs.empty() || !hooks.definitions.empty(); }
};

// Adds a workspace's widening settings to what its consent covers.
void addWideningSettings(WorkspacePrograms& programs, const std::string& wideningText);
// Adds its sub-agents that could run programs (after the widening settings).
void addWorkspaceAgents(WorkspacePrograms& programs, std::vector<WorkspaceAgent> agents);
// Adds its agent skills (after the sub-agents).
void addWorkspaceSkills(WorkspacePrograms& programs, std::vector<WorkspaceSkill> skills);
// Adds a workspace's allow rules (policyText: canonical, see
// policy_folders.h) to what its consent covers; `shown` is how the person
// reads them.
void addWideningPolicies(WorkspacePrograms& programs, const std::string& policyText, std::string shown);

// nullopt when the file is absent, defines no programs, or is the user's own
// settings file (a workspace at the home folder). An empty `text` with hook
// problems: nothing to ask about, only problems to tell. A broken file is an
// error naming the file and the field.
Result<std::optional<WorkspacePrograms>> readWorkspacePrograms(const std::string& root,
                                                               const std::string& userSettingsPath,
                                                               const EnvLookup& env = processEnvironment());

}  // namespace lathe::engine
