// Factories for the built-in tools. Each tool lives in its own file.
#pragma once

#include <memory>

#include "tools/tool.h"
#include "tools/tool_context.h"

namespace lathe::tools {

std::unique_ptr<Tool> makeReadFileTool(const ToolContext& context);
std::unique_ptr<Tool> makeListDirectoryTool(const ToolContext& context);

}  // namespace lathe::tools
