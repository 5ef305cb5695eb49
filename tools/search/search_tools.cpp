// The search tools, registered together.
#include "tools/search/search_tools.h"

namespace lathe::tools {

void registerSearchTools(ToolRegistry& registry, const ToolContext& context) {
  (void)registry.add(makeGlobTool(context));
  (void)registry.add(makeGrepSearchTool(context));
  (void)registry.addAlias("search_file_content", "grep_search");  // Gemini CLI's older name
}

}  // namespace lathe::tools
