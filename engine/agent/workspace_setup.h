// What a session takes from its workspace's `.gemini/settings.json` when it
// is assembled: its own config (the person's with the workspace's keys merged
// in, widening ones only with consent on record or --trust-workspace), the
// programs consent is asked for at the first turn, and what the person is
// told. Reads files: never call it on the thread that reads stdin.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/config/agent_config.h"
#include "engine/config/consent_store.h"
#include "engine/config/workspace_programs.h"
#include "engine/session/session.h"

namespace lathe::engine {

struct WorkspaceSetup {
  std::shared_ptr<const AgentConfig> config;   // the person's, the workspace's merged in
  std::optional<WorkspacePrograms> programs;   // what consent is asked for at the first turn
  std::shared_ptr<const AgentConfig> widened;  // with the widening settings too, when they wait for consent
  std::vector<std::string> wideningKeys;       // those settings' names, when they wait
  std::string ignoredNotice;
  std::vector<std::pair<std::string, std::string>> notices;  // (title, text)
};

// `agents`: the workspace's sub-agents that could run programs, which the
// same consent covers (engine/subagents/agent_catalog.h).
WorkspaceSetup workspaceSetupFor(const std::string& root, const AgentConfig& config, ConsentStore& consent,
                                 std::vector<WorkspaceAgent> agents = {});

// Consent given at the first turn: the widened config's approvals and mode
// apply from now on (the mode only when the person has not changed it).
// Returns what applies only from the next session, for the person, or "".
std::string grantWidening(Session& session, EditorClient& editor, const AgentConfig& widened,
                          const std::vector<std::string>& keys);

}  // namespace lathe::engine
