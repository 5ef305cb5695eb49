// The tools that let the model see MCP servers' resources: list_mcp_resources
// (every server's, or one server's) and read_mcp_resource (by URI, as
// "server:uri" or a bare URI some server listed). Registered once a server
// with resources connects. Read-only; invocations run on tool workers.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "tools/core/tool.h"

namespace lathe::tools::mcp {

class McpServer;

// The servers of a session, as the resource tools find them (thread-safe).
class ServerDirectory {
 public:
  void add(const std::shared_ptr<McpServer>& server);
  std::vector<std::shared_ptr<McpServer>> all();

 private:
  std::mutex mutex_;
  std::vector<std::weak_ptr<McpServer>> servers_;
};

std::unique_ptr<Tool> makeListResourcesTool(std::shared_ptr<ServerDirectory> servers);
std::unique_ptr<Tool> makeReadResourceTool(std::shared_ptr<ServerDirectory> servers);

}  // namespace lathe::tools::mcp
