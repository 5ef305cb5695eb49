// The file tools: read_file, read_many_files, list_directory, write_file and
// replace, each in its own file; this is where the family is listed.
#pragma once

#include <memory>

#include "tools/core/registry.h"
#include "tools/core/tool.h"
#include "tools/core/tool_context.h"

namespace lathe::tools {

// Adds the file tools the registry's filter allows.
void registerFileTools(ToolRegistry& registry, const ToolContext& context);

std::unique_ptr<Tool> makeReadFileTool(const ToolContext& context);
std::unique_ptr<Tool> makeReadManyFilesTool(const ToolContext& context);
std::unique_ptr<Tool> makeListDirectoryTool(const ToolContext& context);
std::unique_ptr<Tool> makeWriteFileTool(const ToolContext& context);
std::unique_ptr<Tool> makeReplaceTool(const ToolContext& context);

}  // namespace lathe::tools
