// The built-in tools: each lives in its own file under tools/; this is the one
// place that lists them.
#pragma once

#include <memory>

#include "tools/core/tool.h"
#include "tools/core/registry.h"
#include "tools/core/tool_context.h"
#include "tools/shell/shell_setup.h"

namespace lathe::tools {

// Adds every built-in tool the registry's filter allows, and their aliases;
// the shell tools get their own setup (options, the session's background commands).
void registerBuiltinTools(ToolRegistry& registry, const ToolContext& context, const ShellOptions& shell);

std::unique_ptr<Tool> makeReadFileTool(const ToolContext& context);
std::unique_ptr<Tool> makeListDirectoryTool(const ToolContext& context);
std::unique_ptr<Tool> makeGlobTool(const ToolContext& context);
std::unique_ptr<Tool> makeGrepSearchTool(const ToolContext& context);
std::unique_ptr<Tool> makeReadManyFilesTool(const ToolContext& context);
std::unique_ptr<Tool> makeWriteFileTool(const ToolContext& context);
std::unique_ptr<Tool> makeReplaceTool(const ToolContext& context);
std::unique_ptr<Tool> makeOutlineTool(const ToolContext& context);
std::unique_ptr<Tool> makeRunShellCommandTool(const ToolContext& context, const ShellSetup& shell);
std::unique_ptr<Tool> makeListBackgroundProcessesTool(const ShellSetup& shell);
std::unique_ptr<Tool> makeReadBackgroundOutputTool(const ShellSetup& shell);
std::unique_ptr<Tool> makeWriteTodosTool(const ToolContext& context);
std::unique_ptr<Tool> makeWebFetchTool(const ToolContext& context);
// Null when the context's model cannot search the web (google_web_search is then not declared).
std::unique_ptr<Tool> makeWebSearchTool(const ToolContext& context);
// Writes only this file (the global GEMINI.md), outside the workspace on purpose.
std::unique_ptr<Tool> makeSaveMemoryTool(const std::string& globalMemoryFile);

}  // namespace lathe::tools
