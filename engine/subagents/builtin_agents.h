// The sub-agents Lathe brings, with Gemini CLI's names, inputs and report
// shapes: codebase_investigator (read-only tools; a structured report of
// key files, symbols and findings) and generalist (the parent's tools
// under the parent's approvals, Lathe's own guide). Pure.
#pragma once

#include <memory>
#include <vector>

#include "engine/subagents/agent_definition.h"

namespace lathe::engine {

std::vector<std::shared_ptr<const AgentDefinition>> builtinAgents();

}  // namespace lathe::engine
