// The web tools: web_fetch (pages named in the prompt) and google_web_search.
#pragma once

#include <memory>

#include "tools/core/registry.h"
#include "tools/core/tool.h"
#include "tools/core/tool_context.h"

namespace lathe::tools {

// Adds the web tools the registry's filter allows; google_web_search only
// when the context's model can search the web.
void registerWebTools(ToolRegistry& registry, const ToolContext& context);

std::unique_ptr<Tool> makeWebFetchTool(const ToolContext& context);
// Null when the context's model cannot search the web (google_web_search is then not declared).
std::unique_ptr<Tool> makeWebSearchTool(const ToolContext& context);

}  // namespace lathe::tools
