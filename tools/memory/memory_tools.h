// The memory tools: save_memory (a fact for the global GEMINI.md).
#pragma once

#include <memory>
#include <string>

#include "tools/core/registry.h"
#include "tools/core/tool.h"
#include "tools/core/tool_context.h"

namespace lathe::tools {

// Adds save_memory when the context names a global memory file and the
// registry's filter allows it.
void registerMemoryTools(ToolRegistry& registry, const ToolContext& context);

// Writes only this file (the global GEMINI.md), outside the workspace on purpose.
std::unique_ptr<Tool> makeSaveMemoryTool(const std::string& globalMemoryFile);

}  // namespace lathe::tools
