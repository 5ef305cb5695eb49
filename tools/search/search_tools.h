// The search tools: glob (files by path) and grep_search (files by content).
#pragma once

#include <memory>

#include "tools/core/registry.h"
#include "tools/core/tool.h"
#include "tools/core/tool_context.h"

namespace lathe::tools {

// Adds the search tools the registry's filter allows, and grep_search's older name.
void registerSearchTools(ToolRegistry& registry, const ToolContext& context);

std::unique_ptr<Tool> makeGlobTool(const ToolContext& context);
std::unique_ptr<Tool> makeGrepSearchTool(const ToolContext& context);

}  // namespace lathe::tools
