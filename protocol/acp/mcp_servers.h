// The MCP servers an editor passes in session/new: stdio, http or sse, typed.
// Pure.
#pragma once

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "protocol/acp/common.h"

namespace lathe::acp {

using NameValue = std::pair<std::string, std::string>;  // an env variable or an HTTP header

struct McpStdioServer {
  std::string name;
  std::string command;  // absolute path
  std::vector<std::string> args;
  std::vector<NameValue> env;
};

struct McpHttpServer {
  enum class Transport { http, sse } transport = Transport::http;
  std::string name;
  std::string url;
  std::vector<NameValue> headers;
};

using McpServer = std::variant<McpStdioServer, McpHttpServer>;

const char* toString(McpHttpServer::Transport transport);  // its "type": http or sse

// Decodes `mcpServers` (an array); r points at the request object.
Result<std::vector<McpServer>> decodeMcpServers(json::Reader& r);

}  // namespace lathe::acp
