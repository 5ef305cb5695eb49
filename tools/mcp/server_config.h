// One MCP server as Lathe will run it, whichever source named it (the editor's
// session/new, the user's settings, a workspace's settings). The MCP client
// starts from this; the settings and ACP decoders produce it. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace lathe::tools::mcp {

using NameValue = std::pair<std::string, std::string>;  // an env variable or an HTTP header

struct StdioTransport {
  std::string command;
  std::vector<std::string> args;
  std::vector<NameValue> env;  // added to a scrubbed environment, `$VAR` already expanded
  std::optional<std::string> cwd;
};

struct HttpTransport {
  // streamable: settings `httpUrl` or type "http"; sse: the legacy transport;
  // automatic: a bare `url`, Streamable HTTP first, falling back to SSE.
  enum class Kind { streamable, sse, automatic } kind = Kind::automatic;
  std::string url;
  std::vector<NameValue> headers;
};

struct ServerConfig {
  enum class Origin { editor, userSettings, workspaceSettings } origin = Origin::editor;
  std::string name;  // the alias tools are prefixed with
  std::variant<StdioTransport, HttpTransport> transport;
  int64_t timeoutMs = 600'000;            // per tools/call
  bool trust = false;                     // calls run without asking
  std::vector<std::string> includeTools;  // only these, when not empty
  std::vector<std::string> excludeTools;
};

}  // namespace lathe::tools::mcp
