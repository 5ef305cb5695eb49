// The parts of Gemini CLI settings that start programs: MCP servers
// (`mcpServers.<name>`) and command-based tool discovery
// (`tools.discoveryCommand`, `tools.callCommand`), and the list of MCP
// servers a session starts from them. Decoding is in
// program_settings_decode.h (it needs the JSON headers). A workspace's need
// the person's consent before anything runs (engine/session/
// workspace_consent.h). Pure; any thread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/mcp/server_config.h"

namespace lathe::engine {

struct ProgramSettings {
  std::vector<tools::mcp::ServerConfig> mcpServers;
  std::optional<std::string> discoveryCommand;  // tools.discoveryCommand
  std::optional<std::string> callCommand;       // tools.callCommand
  bool empty() const { return mcpServers.empty() && !discoveryCommand && !callCommand; }
};

// A variable's value, nullopt when it is not set.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;
// The process's own environment.
EnvLookup processEnvironment();

// Replaces $NAME and ${NAME} with the variable's value (empty when unset);
// `$` followed by anything else stays as it is.
std::string expandEnv(std::string_view text, const EnvLookup& lookup);

// The MCP servers settings give one session: the user's, then (when the
// person agreed to them; else null) the workspace's, a later one replacing
// a server of the same name; without those mcp.excluded names, and only
// those mcp.allowed names when it is set. A workspace server's `trust` is
// dropped unless keepWorkspaceTrust: a repository cannot decide by itself
// that its own tools run unasked (the person's consent to its
// configuration, which covers `trust`, can).
std::vector<tools::mcp::ServerConfig> mcpServersFromSettings(const ProgramSettings& user,
                                                             const ProgramSettings* workspace,
                                                             const std::optional<std::vector<std::string>>& allowed,
                                                             const std::vector<std::string>& excluded,
                                                             bool keepWorkspaceTrust = false);

// Whether settings let a server of this name start (any source, the
// editor's included): not in mcp.excluded, and in mcp.allowed when it is set.
bool mcpServerPermitted(const std::string& name, const std::optional<std::vector<std::string>>& allowed,
                        const std::vector<std::string>& excluded);

// The servers whose calls run without asking: mcp.allowed, and the user's
// servers with trust: true.
std::vector<std::string> unaskedMcpServers(const ProgramSettings& user,
                                           const std::optional<std::vector<std::string>>& allowed);

}  // namespace lathe::engine
