// What a session takes from its workspace and the person's files when it is
// assembled: its own config (the person's with the workspace's settings
// merged in, widening ones only with consent on record, Gemini CLI's trust in
// the folder or --trust-workspace), the policy rules in force (the person's,
// the administrator's, the extensions', and the workspace's that refuse or
// ask; those that allow more wait for the same consent), where "always"
// answers are kept, the programs and settings consent is asked for at the
// first turn, and what the person is told. Reads files: never call it on the
// thread that reads stdin.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/config/agent_config.h"
#include "engine/config/consent_store.h"
#include "engine/config/kept_answers_store.h"
#include "engine/config/trusted_folders.h"
#include "engine/config/workspace_programs.h"
#include "engine/session/session.h"

namespace lathe::engine {

struct WorkspaceSetup {
  std::shared_ptr<const AgentConfig> config;   // the person's, the workspace's merged in
  std::optional<WorkspacePrograms> programs;   // what consent is asked for at the first turn
  FolderTrustVerdict trust;                    // Gemini CLI's own trust in the folder (counts as the answer)
  std::shared_ptr<const AgentConfig> widened;  // with the widening settings too, when they wait for consent
  std::vector<std::string> wideningKeys;       // those settings' names, when they wait
  PolicyList policies;                         // the policy rules in force from the start
  // The workspace's allow rules, when they wait for consent.
  std::shared_ptr<const PolicyRules> wideningPolicies;
  std::shared_ptr<KeptAnswersStore> kept;      // null when answers cannot be kept
  std::string ignoredNotice;
  std::vector<std::pair<std::string, std::string>> notices;  // (title, text)
};

// `agents`: the workspace's sub-agents that could run programs, and
// `skills`: its agent skills, which the same consent covers
// (engine/subagents/agent_catalog.h, engine/agent/session_skills.h).
WorkspaceSetup workspaceSetupFor(const std::string& root, const AgentConfig& config, ConsentStore& consent,
                                 std::vector<WorkspaceAgent> agents = {}, std::vector<WorkspaceSkill> skills = {});

// Consent given at the first turn: the widened config's approvals and mode,
// and the workspace's allow rules, apply from now on (the mode only when the
// person has not changed it). Returns what applies only from the next
// session, for the person, or "".
std::string grantWidening(Session& session, EditorClient& editor, const AgentConfig* widened,
                          const std::vector<std::string>& keys, std::shared_ptr<const PolicyRules> policies);

}  // namespace lathe::engine
