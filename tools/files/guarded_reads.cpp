// The files a read asks about.
#include "tools/files/guarded_reads.h"

#include "tools/files/secret_files.h"
#include "tools/search/file_walker.h"

namespace lathe::tools {

std::string guardedReadReason(const Workspace& workspace, const std::string& path, bool isDir) {
  if (path.ends_with("/.git") || path.find("/.git/") != std::string::npos) {
    return "inside .git (git's own data, which may hold credentials)";
  }
  if (std::string why = isDir ? "" : secretFileReason(path); !why.empty()) return why;
  return ignoredByGitIgnore(workspace, path, isDir) ? "ignored by .gitignore" : "";
}

std::optional<ReadConfirmation> guardedReads(const Workspace& workspace, const std::vector<std::string>& paths) {
  ReadConfirmation confirmation;
  for (const auto& path : paths) {
    if (std::string why = guardedReadReason(workspace, path, false); !why.empty()) {
      confirmation.files.push_back({path, std::move(why)});
    }
  }
  if (confirmation.files.empty()) return std::nullopt;
  return confirmation;
}

}  // namespace lathe::tools
