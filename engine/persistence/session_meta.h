// A session's MCP servers as JSON, to keep in its metadata. Any thread.
#pragma once

#include <string>
#include <vector>

#include "protocol/base/json.h"
#include "protocol/acp/mcp_servers.h"

namespace lathe::engine::persist {

// The servers in the shape of ACP's McpServer, to keep in the metadata.
json::Raw mcpServersJson(const std::vector<acp::McpServer>& servers);

}  // namespace lathe::engine::persist
