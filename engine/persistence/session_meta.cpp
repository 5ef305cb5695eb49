// A session's MCP servers as recorded in its metadata.
#include "engine/persistence/session_meta.h"

#include "protocol/base/log.h"

namespace lathe::engine::persist {
namespace {

void writeNameValues(json::Writer& w, std::string_view key, const std::vector<acp::NameValue>& pairs) {
  json::array(w, key, [&] {
    for (const auto& [name, value] : pairs) {
      json::object(w, [&] {
        json::put(w, "name", name);
        json::put(w, "value", value);
      });
    }
  });
}

void writeServer(json::Writer& w, const acp::McpServer& server) {
  if (auto* stdio = std::get_if<acp::McpStdioServer>(&server)) {
    json::put(w, "name", stdio->name);
    json::put(w, "command", stdio->command);
    json::array(w, "args", [&] {
      for (const auto& arg : stdio->args) json::str(w, arg);
    });
    writeNameValues(w, "env", stdio->env);
  } else if (auto* http = std::get_if<acp::McpHttpServer>(&server)) {
    json::put(w, "type", acp::toString(http->transport));
    json::put(w, "name", http->name);
    json::put(w, "url", http->url);
    writeNameValues(w, "headers", http->headers);
  }
}

}  // namespace

json::Raw mcpServersJson(const std::vector<acp::McpServer>& servers) {
  return {json::build([&](json::Writer& w) {
    json::array(w, [&] {
      for (const auto& server : servers) json::object(w, [&] { writeServer(w, server); });
    });
  })};
}


}  // namespace lathe::engine::persist
