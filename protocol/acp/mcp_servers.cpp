// Decoding of session/new's mcpServers.
#include "protocol/acp/mcp_servers.h"

#include "protocol/base/enum_names.h"

namespace lathe::acp {
namespace {

constexpr EnumName<McpHttpServer::Transport> kTransports[] = {
    {McpHttpServer::Transport::http, "http"},
    {McpHttpServer::Transport::sse, "sse"},
};

std::vector<NameValue> nameValues(json::Reader& server, const char* field) {
  std::vector<NameValue> out;
  for (auto& item : server.array(field)) {
    std::string name = item.str("name");
    out.emplace_back(std::move(name), item.str("value"));
  }
  return out;
}

}  // namespace

const char* toString(McpHttpServer::Transport transport) { return nameOf(kTransports, transport); }

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
    } else if (auto transport = valueOf(kTransports, type)) {
      McpHttpServer server;
      server.transport = *transport;
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
