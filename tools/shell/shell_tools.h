// The shell tools: run_shell_command and the two that look at the session's
// background commands (list_background_processes, read_background_output).
#pragma once

#include <memory>

#include "tools/core/registry.h"
#include "tools/core/tool.h"
#include "tools/core/tool_context.h"
#include "tools/shell/shell_setup.h"

namespace lathe::tools {

// Adds the shell tools the registry's filter allows, sharing one set of
// background commands that ends with the tools.
void registerShellTools(ToolRegistry& registry, const ToolContext& context, const ShellOptions& options);

std::unique_ptr<Tool> makeRunShellCommandTool(const ToolContext& context, const ShellSetup& shell);
std::unique_ptr<Tool> makeListBackgroundProcessesTool(const ShellSetup& shell);
std::unique_ptr<Tool> makeReadBackgroundOutputTool(const ShellSetup& shell);

}  // namespace lathe::tools
