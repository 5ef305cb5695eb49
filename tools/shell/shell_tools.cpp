// The shell tools, registered together.
#include "tools/shell/shell_tools.h"

#include "tools/shell/background_processes.h"

namespace lathe::tools {

void registerShellTools(ToolRegistry& registry, const ToolContext& context, const ShellOptions& options) {
  ShellSetup setup{options, std::make_shared<shell::BackgroundProcesses>()};  // ended with the tools
  (void)registry.add(makeRunShellCommandTool(context, setup));
  (void)registry.add(makeListBackgroundProcessesTool(setup));
  (void)registry.add(makeReadBackgroundOutputTool(setup));
}

}  // namespace lathe::tools
