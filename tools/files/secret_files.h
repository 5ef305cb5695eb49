// Files shaped like secrets: environment files, private keys, credential
// stores. Reading one sends its contents to the model provider, so the read
// tools ask the person first, whatever ignore files say, and searches leave
// them out. Names are compared without case (a case-insensitive file system
// opens .ENV as .env). Pure; any thread.
#pragma once

#include <string>
#include <vector>

namespace lathe::tools {

// Why `path` looks like it holds secrets ("an environment file (.env)"), or
// "" when it does not.
std::string secretFileReason(const std::string& path);

// The secret-shaped files under `roots` (and each root's .git/config, which
// may hold a token in a remote's URL), found by a bounded scan: a few levels
// deep, past dependency and build folders, a few thousand entries at most.
// For runs nobody approved, which see them as empty. Reads directories.
std::vector<std::string> secretFilesUnder(const std::vector<std::string>& roots);

}  // namespace lathe::tools
