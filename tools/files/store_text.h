// Reading a file's text the way the edit tools see it: through the session's
// FileStore (the editor's unsaved buffer when the editor offers
// fs/read_text_file, else the disk), so that what the model reads and what
// replace matches against never disagree. Binary and image sniffing may still
// look at the disk; a file that exists only in the store is still read.
// Any worker thread (the store is thread-safe).
#pragma once

#include <string>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "tools/core/tool.h"
#include "tools/core/tool_context.h"

namespace lathe::tools {

// The file's text from context.files (the disk when the context has no store).
Result<std::string> readStoreText(const ToolContext& context, const std::string& path, const CancelToken& cancel);

// The tool error for a failed store read of `path`.
ToolError storeReadError(const Error& error, const std::string& path);

}  // namespace lathe::tools
