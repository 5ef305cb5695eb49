// invoke_agent, Gemini CLI's tool for sub-agents (parameters agent_name and
// prompt; kind agent): each call runs one child session to its report
// (child_run.h). Calls of one reply run in parallel. Declared only when the
// session has sub-agents to start.
#pragma once

#include <memory>

#include "engine/subagents/subagent_host.h"
#include "tools/core/tool.h"

namespace lathe::engine {

std::unique_ptr<tools::Tool> makeInvokeAgentTool(std::shared_ptr<SubagentHost> host);

}  // namespace lathe::engine
