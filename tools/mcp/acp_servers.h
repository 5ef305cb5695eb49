// The MCP servers an editor passes in ACP session/new, as ServerConfig
// (origin editor; stdio servers run in the session's directory). Pure.
#pragma once

#include <string>
#include <vector>

#include "protocol/acp/mcp_servers.h"
#include "tools/mcp/server_config.h"

namespace lathe::tools::mcp {

std::vector<ServerConfig> fromAcp(const std::vector<acp::McpServer>& servers, const std::string& cwd);

}  // namespace lathe::tools::mcp
