// complete_task, Gemini CLI's way for a sub-agent to finish: its one
// parameter holds the report (a text, or the object the agent's report
// schema describes), handed to `onComplete` as text (an object as indented
// JSON). A sub-agent may also finish with a plain answer. Thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "engine/subagents/agent_definition.h"
#include "tools/core/tool.h"

namespace lathe::engine {

std::unique_ptr<tools::Tool> makeCompleteTaskTool(const AgentReport& report,
                                                  std::function<void(std::string report)> onComplete);

}  // namespace lathe::engine
