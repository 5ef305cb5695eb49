// Files shaped like secrets: environment files, private keys, credential
// stores. Reading one sends its contents to the model provider, so the read
// tools ask the person first, whatever ignore files say. Pure; any thread.
#pragma once

#include <string>
#include <vector>

namespace lathe::tools {

// Why `path` looks like it holds secrets ("an environment file (.env)"), or
// "" when it does not.
std::string secretFileReason(const std::string& path);

// The same shapes as gitignore-style patterns, for walks that leave them out.
const std::vector<std::string>& secretFilePatterns();

}  // namespace lathe::tools
