// The settings of sub-agents (engine/subagents): experimental.enableAgents
// and agents.overrides.<name>, of which Lathe applies enabled, the run
// limits and the model. Plain values.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace lathe::engine {

struct AgentOverride {
  std::optional<bool> enabled;
  std::optional<int> maxTurns;        // runConfig.maxTurns: model requests
  std::optional<int> maxTimeMinutes;  // runConfig.maxTimeMinutes
  std::optional<int64_t> maxTokens;   // runConfig.maxTokens (Lathe's own): tokens of all its requests
  std::optional<std::string> model;   // modelConfig.model
};

struct SubagentOptions {
  bool enabled = true;                              // experimental.enableAgents
  std::map<std::string, AgentOverride> overrides;   // agents.overrides, by agent name
};

}  // namespace lathe::engine
