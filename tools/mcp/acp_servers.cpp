// ACP mcpServers to ServerConfig.
#include "tools/mcp/acp_servers.h"

namespace lathe::tools::mcp {

std::vector<ServerConfig> fromAcp(const std::vector<acp::McpServer>& servers, const std::string& cwd) {
  std::vector<ServerConfig> configs;
  for (const auto& server : servers) {
    ServerConfig config;
    config.origin = ServerConfig::Origin::editor;
    if (const auto* stdio = std::get_if<acp::McpStdioServer>(&server)) {
      config.name = stdio->name;
      config.transport = StdioTransport{stdio->command, stdio->args, stdio->env, cwd};
    } else {
      const auto& http = std::get<acp::McpHttpServer>(server);
      config.name = http.name;
      auto kind = http.transport == acp::McpHttpServer::Transport::http ? HttpTransport::Kind::streamable
                                                                         : HttpTransport::Kind::sse;
      config.transport = HttpTransport{kind, http.url, http.headers};
    }
    configs.push_back(std::move(config));
  }
  return configs;
}

}  // namespace lathe::tools::mcp
