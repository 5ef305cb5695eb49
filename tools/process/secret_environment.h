// Which of Lathe's environment variables are secrets that programs started
// for tools (MCP servers, discovery commands) must not inherit unless their
// own configuration names them: names that say secret, as Gemini CLI's
// sanitizer drops them (token, secret, password, key, auth, credential,
// private, cert, ...), and values shaped like a known kind of key whatever
// their name. Pure functions; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lathe::tools::process {

bool isSecretVariable(std::string_view name, std::string_view value);

// The names of this process's environment variables that are secrets.
std::vector<std::string> secretVariableNames();

}  // namespace lathe::tools::process
