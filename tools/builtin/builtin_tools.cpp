// The built-in tools, registered in one place.
#include "tools/builtin/builtin_tools.h"

#include "tools/shell/background_processes.h"

namespace lathe::tools {

void registerBuiltinTools(ToolRegistry& registry, const ToolContext& context, const ShellOptions& shell) {
  ShellSetup shellSetup{shell, std::make_shared<shell::BackgroundProcesses>()};  // ended with the tools
  std::unique_ptr<Tool> builtins[] = {
      makeReadFileTool(context),         makeListDirectoryTool(context),      makeWriteFileTool(context),
      makeReplaceTool(context),          makeGlobTool(context),               makeGrepSearchTool(context),
      makeReadManyFilesTool(context),    makeOutlineTool(context),            makeRunShellCommandTool(context, shellSetup),
      makeListBackgroundProcessesTool(shellSetup), makeReadBackgroundOutputTool(shellSetup),
      makeWriteTodosTool(context),
      makeWebFetchTool(context),         makeWebSearchTool(context),
  };
  // Built-in names are unique; the registry's filter may leave some out.
  for (auto& tool : builtins) {
    if (tool) (void)registry.add(std::move(tool));
  }
  if (!context.globalMemoryFile.empty()) (void)registry.add(makeSaveMemoryTool(context.globalMemoryFile));
  (void)registry.addAlias("search_file_content", "grep_search");  // Gemini CLI's older name
}

}  // namespace lathe::tools
