// What a sub-agent is told: its system instruction (its own instructions
// with their ${input} placeholders filled, or Lathe's guide for the
// generalist, then the context files, plan mode and the rules of working
// unattended and finishing with complete_task) and its first message. Pure.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "engine/session/system_prompt.h"
#include "engine/subagents/agent_definition.h"
#include "protocol/base/result.h"

namespace lathe::engine {

using AgentInputs = std::map<std::string, std::string>;

// `text` with each ${name} replaced by its input; a placeholder without an
// input is an error naming it and the inputs there are.
Result<std::string> fillPlaceholders(std::string_view text, const AgentInputs& inputs);

// The system instruction for the features of the child's request. The
// agent's own instructions must have been checked with fillPlaceholders.
std::string childInstructions(const AgentDefinition& agent, const AgentInputs& inputs, const PromptFeatures& features);

}  // namespace lathe::engine
