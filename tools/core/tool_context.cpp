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

ResolvedPath resolveReadPath(const ToolContext& context, std::string_view path) {
  ResolvedPath inWorkspace = resolveToolPath(*context.workspace, path);
  if (!inWorkspace.error || inWorkspace.error->type != ErrorType::path_not_in_workspace || !context.readableFolders) {
    return inWorkspace;
  }
  if (auto inside = context.readableFolders->resolve(path)) return {std::move(*inside), std::nullopt};
  return inWorkspace;
}

}  // namespace lathe::tools
