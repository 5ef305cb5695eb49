// Decoding of session/new's mcpServers.
#include "protocol/acp/mcp_servers.h"

namespace lathe::acp {
namespace {

std::vector<NameValue> nameValues(json::Reader& server, const char* field) {
  std::vector<NameValue> out;
  for (auto& item : server.array(field)) {
    std::string name = item.str("name");
    out.emplace_back(std::move(name), item.str("value"));
  }
  return out;
}

}  // namespace

Result<std::vector<McpServer>> decodeMcpServers(json::Reader& r) {
  std::vector<McpServer> servers;
  auto items = r.optArray("mcpServers");
  if (!items) return finish(r, std::move(servers));
  for (auto& item : *items) {
    if (!item.expectObject()) break;
    std::string type = item.optStr("type").value_or("stdio");
    if (type == "stdio") {
      McpStdioServer server;
      server.name = item.str("name");
      server.command = item.str("command");
      server.args = item.optStrings("args").value_or(std::vector<std::string>{});
      if (item.has("env")) server.env = nameValues(item, "env");
      servers.emplace_back(std::move(server));
    } else if (type == "http" || type == "sse") {
      McpHttpServer server;
      server.transport = type == "http" ? McpHttpServer::Transport::http : McpHttpServer::Transport::sse;
      server.name = item.str("name");
      server.url = item.str("url");
      if (item.has("headers")) server.headers = nameValues(item, "headers");
      servers.emplace_back(std::move(server));
    } else {
      item.fail(item.path() + ".type", "unknown MCP server type \"" + type + "\" (stdio, http or sse)");
    }
  }
  return finish(r, std::move(servers));
}

}  // namespace lathe::acp
