// The syntax tools: read_outline (the definitions of a file or a directory).
#pragma once

#include <memory>

#include "tools/core/registry.h"
#include "tools/core/tool.h"
#include "tools/core/tool_context.h"

namespace lathe::tools {

// Adds read_outline when the registry's filter allows it.
void registerSyntaxTools(ToolRegistry& registry, const ToolContext& context);

std::unique_ptr<Tool> makeOutlineTool(const ToolContext& context);

}  // namespace lathe::tools
