// The tools that ask the person: ask_user (Gemini CLI's questions, asked as
// a form through the editor).
#pragma once

#include <memory>

#include "tools/core/registry.h"
#include "tools/core/tool.h"
#include "tools/core/tool_context.h"

namespace lathe::tools {

// Adds ask_user when the editor can show a form (context.asker offers one)
// and the registry's filter allows it: with no way to ask, it is not declared.
void registerAskTools(ToolRegistry& registry, const ToolContext& context);

std::unique_ptr<Tool> makeAskUserTool(std::shared_ptr<Asker> asker);

}  // namespace lathe::tools
