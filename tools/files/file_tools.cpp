// The file tools, registered together.
#include "tools/files/file_tools.h"

namespace lathe::tools {

void registerFileTools(ToolRegistry& registry, const ToolContext& context) {
  // Built-in names are unique; the registry's filter may leave some out.
  (void)registry.add(makeReadFileTool(context));
  (void)registry.add(makeReadManyFilesTool(context));
  (void)registry.add(makeListDirectoryTool(context));
  (void)registry.add(makeWriteFileTool(context));
  (void)registry.add(makeReplaceTool(context));
}

}  // namespace lathe::tools
