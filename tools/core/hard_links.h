// Hard links and the workspace. A regular file with more than one link has
// other names, and stat cannot say where they are: one may be a file outside
// the workspace (~/.ssh/id_rsa linked in by an earlier command), which
// reading or editing the name inside would reach. The rule: such a file is
// read or edited only when all of its links are found inside the workspace
// roots (searched without following symbolic links, on the file's own
// filesystem, up to kMaxLinkSearchEntries entries); otherwise, or when the
// search cannot finish, it is refused. Files with one link are not searched
// for. Blocking (walks folders); any thread.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <optional>
#include <string>

#include "tools/core/workspace.h"

namespace lathe::tools {

inline constexpr size_t kMaxLinkSearchEntries = 100000;

// Why `path` (with its stat `st`) must not be read or edited for its hard
// links, or nothing when it may be. Only regular files with st_nlink > 1 are
// searched for; `maxEntries` bounds the search (tests make it small).
std::optional<std::string> outsideHardLinks(const Workspace& workspace, const std::string& path,
                                            const struct stat& st, size_t maxEntries = kMaxLinkSearchEntries);

// The same for a path not yet stat'ed; nothing when it does not exist.
std::optional<std::string> outsideHardLinks(const Workspace& workspace, const std::string& path);

}  // namespace lathe::tools
