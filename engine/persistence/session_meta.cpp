// A new session's recording.
#include "engine/persistence/session_meta.h"

#include "protocol/base/log.h"

namespace lathe::engine::persist {
namespace {

void writeNameValues(json::Writer& w, std::string_view key, const std::vector<acp::NameValue>& pairs) {
  json::key(w, key);
  w.StartArray();
  for (const auto& [name, value] : pairs) {
    w.StartObject();
    json::put(w, "name", name);
    json::put(w, "value", value);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

json::Raw mcpServersJson(const std::vector<acp::McpServer>& servers) {
  return {json::build([&](json::Writer& w) {
    w.StartArray();
    for (const auto& server : servers) {
      w.StartObject();
      if (auto* stdio = std::get_if<acp::McpStdioServer>(&server)) {
        json::put(w, "name", stdio->name);
        json::put(w, "command", stdio->command);
        json::key(w, "args");
        w.StartArray();
        for (const auto& arg : stdio->args) json::str(w, arg);
        w.EndArray();
        writeNameValues(w, "env", stdio->env);
      } else if (auto* http = std::get_if<acp::McpHttpServer>(&server)) {
        json::put(w, "type", http->transport == acp::McpHttpServer::Transport::sse ? "sse" : "http");
        json::put(w, "name", http->name);
        json::put(w, "url", http->url);
        writeNameValues(w, "headers", http->headers);
      }
      w.EndObject();
    }
    w.EndArray();
  })};
}

std::shared_ptr<SessionRecorder> recorderFor(const SessionStore& store, const Session& session,
                                             const acp::NewSessionRequest& request) {
  SessionMeta meta;
  meta.id = session.id();
  meta.cwd = request.cwd;
  meta.additionalDirectories = request.additionalDirectories;
  meta.mcpServers = mcpServersJson(request.mcpServers);
  meta.mode = toString(session.mode());
  meta.model = session.model();
  auto recorder = SessionRecorder::create(store, std::move(meta));
  if (!recorder) {
    log(LogLevel::warn, "session " + session.id() + " is not recorded: " + recorder.error().message);
    return nullptr;
  }
  return std::move(recorder).value();
}

}  // namespace lathe::engine::persist
