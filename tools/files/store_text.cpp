// Reads through the session's FileStore. Any worker thread.
#include "tools/files/store_text.h"

#include "tools/core/hard_links.h"

namespace lathe::tools {

Result<std::string> readStoreText(const ToolContext& context, const std::string& path, const CancelToken& cancel) {
  if (context.workspace) {
    if (auto why = outsideHardLinks(*context.workspace, path)) return makeError(Errc::forbidden, *why);
  }
  // Outside the workspace (a skill's folder) there are no editor buffers to read.
  if (context.files && (!context.workspace || context.workspace->contains(path))) return context.files->readText(path, cancel);
  return makeDiskFileStore()->readText(path, cancel);
}

ToolError storeReadError(const Error& error, const std::string& path) {
  switch (error.code) {
    case Errc::not_found:
      return ToolError{ErrorType::file_not_found, "File not found: " + path};
    case Errc::cancelled:
      return ToolError{ErrorType::cancelled, "Cancelled"};
    case Errc::forbidden:
      return ToolError{ErrorType::permission_denied, "Cannot read " + path + ": " + error.message};
    default:
      return ToolError{ErrorType::execution_failed, "Cannot read " + path + ": " + error.message};
  }
}

}  // namespace lathe::tools
