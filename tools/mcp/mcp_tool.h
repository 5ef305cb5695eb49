// An MCP server's tool as a Lathe tool: the model's arguments go to the
// server unchanged, confirmation names the server and the tool, the kind
// comes from the tool's annotations (read-only hints), else other. Immutable;
// invocations run on tool worker threads.
#pragma once

#include <memory>

#include "tools/core/tool.h"
#include "tools/mcp/mcp_client.h"

namespace lathe::tools::mcp {

class McpServer;

// `name` is the registered name (see tool_naming.h).
std::unique_ptr<Tool> makeMcpTool(std::string name, const ListedTool& listed, std::weak_ptr<McpServer> server,
                                  const std::string& serverName, bool trusted);

}  // namespace lathe::tools::mcp
