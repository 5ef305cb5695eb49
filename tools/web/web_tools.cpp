// The web tools, registered together.
#include "tools/web/web_tools.h"

namespace lathe::tools {

void registerWebTools(ToolRegistry& registry, const ToolContext& context) {
  (void)registry.add(makeWebFetchTool(context));
  if (auto search = makeWebSearchTool(context)) (void)registry.add(std::move(search));
}

}  // namespace lathe::tools
