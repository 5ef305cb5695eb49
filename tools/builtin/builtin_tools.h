// The built-in tools: each lives in its own file under tools/; this is the one
// place that lists them.
#pragma once

#include <memory>

#include "tools/core/tool.h"
#include "tools/core/registry.h"
#include "tools/core/tool_context.h"

namespace lathe::tools {

// Adds every built-in tool the registry's filter allows, and their aliases.
void registerBuiltinTools(ToolRegistry& registry, const ToolContext& context);

std::unique_ptr<Tool> makeReadFileTool(const ToolContext& context);
std::unique_ptr<Tool> makeListDirectoryTool(const ToolContext& context);
std::unique_ptr<Tool> makeGlobTool(const ToolContext& context);
std::unique_ptr<Tool> makeGrepSearchTool(const ToolContext& context);
std::unique_ptr<Tool> makeReadManyFilesTool(const ToolContext& context);
std::unique_ptr<Tool> makeWriteFileTool(const ToolContext& context);
std::unique_ptr<Tool> makeReplaceTool(const ToolContext& context);
std::unique_ptr<Tool> makeOutlineTool(const ToolContext& context);
std::unique_ptr<Tool> makeRunShellCommandTool(const ToolContext& context);
std::unique_ptr<Tool> makeListBackgroundProcessesTool(const ToolContext& context);
std::unique_ptr<Tool> makeReadBackgroundOutputTool(const ToolContext& context);

}  // namespace lathe::tools
