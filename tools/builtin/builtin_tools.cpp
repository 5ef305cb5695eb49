// The built-in tools, registered in one place.
#include "tools/builtin/builtin_tools.h"

namespace lathe::tools {

void registerBuiltinTools(ToolRegistry& registry, const ToolContext& context) {
  std::unique_ptr<Tool> builtins[] = {
      makeReadFileTool(context),         makeListDirectoryTool(context),      makeWriteFileTool(context),
      makeReplaceTool(context),          makeGlobTool(context),               makeGrepSearchTool(context),
      makeReadManyFilesTool(context),    makeOutlineTool(context),            makeRunShellCommandTool(context),
      makeListBackgroundProcessesTool(context), makeReadBackgroundOutputTool(context),
  };
  // Built-in names are unique; the registry's filter may leave some out.
  for (auto& tool : builtins) (void)registry.add(std::move(tool));
  (void)registry.addAlias("search_file_content", "grep_search");  // Gemini CLI's older name
}

}  // namespace lathe::tools
