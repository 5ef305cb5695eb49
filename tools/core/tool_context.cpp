// Path resolution for tools.
#include "tools/core/tool_context.h"

namespace lathe::tools {

ResolvedPath resolveToolPath(const Workspace& workspace, std::string_view path) {
  auto resolved = workspace.resolve(path);
  if (resolved) return {std::move(resolved).value(), std::nullopt};
  ErrorType type = resolved.error().code == Errc::forbidden ? ErrorType::path_not_in_workspace
                   : resolved.error().code == Errc::io      ? ErrorType::execution_failed
                                                            : ErrorType::invalid_params;
  return {{}, ToolError{type, resolved.error().message}};
}

}  // namespace lathe::tools
