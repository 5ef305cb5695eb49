// The files a read asks about.
#include "tools/files/guarded_reads.h"

#include "tools/files/secret_files.h"
#include "tools/search/file_walker.h"

namespace lathe::tools {

std::optional<ReadConfirmation> guardedReads(const Workspace& workspace, const std::vector<std::string>& paths) {
  ReadConfirmation confirmation;
  for (const auto& path : paths) {
    std::string why = secretFileReason(path);
    if (why.empty() && ignoredByGitIgnore(workspace, path)) why = "ignored by .gitignore";
    if (!why.empty()) confirmation.files.push_back({path, std::move(why)});
  }
  if (confirmation.files.empty()) return std::nullopt;
  return confirmation;
}

}  // namespace lathe::tools
