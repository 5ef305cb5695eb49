// The parts of Gemini CLI settings that start programs: MCP servers
// (`mcpServers.<name>`) and command-based tool discovery
// (`tools.discoveryCommand`, `tools.callCommand`). Decoded from one settings
// file; a workspace's need the person's consent before anything runs
// (workspace_consent.h). Pure; any thread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/json.h"
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

// Reads `mcpServers` and the discovery commands of one settings file (the
// reader is the file's root object). Problems are reported on the reader,
// naming the file and field. Servers of a later file replace those of the
// same name, so call it in file order on the same ProgramSettings.
void decodeProgramSettings(json::Reader& root, tools::mcp::ServerConfig::Origin origin, const EnvLookup& env,
                           ProgramSettings& out);

// The program parts of one file as canonical JSON text (what consent is
// given to): its `mcpServers` object and the two commands, exactly as
// written, before any expansion. Empty when the file defines none.
std::string programSettingsText(const json::Value& root);

}  // namespace lathe::engine
