// The todo tools: write_todos (the session's todo list, shown as an ACP plan).
#pragma once

#include <memory>

#include "tools/core/registry.h"
#include "tools/core/tool.h"
#include "tools/core/tool_context.h"

namespace lathe::tools {

// Adds write_todos when the registry's filter allows it.
void registerTodoTools(ToolRegistry& registry, const ToolContext& context);

std::unique_ptr<Tool> makeWriteTodosTool(const ToolContext& context);

}  // namespace lathe::tools
