// Encoders and decoders of session/load, session/resume and session/list.
#include "protocol/acp/session_store.h"

namespace lathe::acp {

Result<LoadSessionRequest> LoadSessionRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  LoadSessionRequest req;
  req.sessionId = r.str("sessionId");
  req.cwd = r.str("cwd");
  req.additionalDirectories = r.optStrings("additionalDirectories").value_or(std::vector<std::string>{});
  auto servers = decodeMcpServers(r);
  if (!servers) return servers.error();
  req.mcpServers = std::move(servers).value();
  return finish(r, std::move(req));
}

json::Raw LoadSessionResponse::toJson() const {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    writeSessionSetup(w, currentModeId, availableModes, configOptions);
    w.EndObject();
  })};
}

Result<ListSessionsRequest> ListSessionsRequest::fromJson(const json::Value& params) {
  ListSessionsRequest req;
  if (params.IsNull()) return req;  // every field is optional, params too
  auto r = json::Reader::root(params);
  if (r.has("cwd") && !json::find(params, "cwd")->IsNull()) req.cwd = r.str("cwd");
  if (r.has("cursor") && !json::find(params, "cursor")->IsNull()) req.cursor = r.str("cursor");
  return finish(r, std::move(req));
}

json::Raw ListSessionsResponse::toJson() const {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    json::key(w, "sessions");
    w.StartArray();
    for (const auto& info : sessions) {
      w.StartObject();
      json::put(w, "sessionId", info.sessionId);
      json::put(w, "cwd", info.cwd);
      if (!info.additionalDirectories.empty()) {
        json::key(w, "additionalDirectories");
        w.StartArray();
        for (const auto& dir : info.additionalDirectories) json::str(w, dir);
        w.EndArray();
      }
      if (!info.title.empty()) json::put(w, "title", info.title);
      if (!info.updatedAt.empty()) json::put(w, "updatedAt", info.updatedAt);
      w.EndObject();
    }
    w.EndArray();
    if (nextCursor) json::put(w, "nextCursor", *nextCursor);
    w.EndObject();
  })};
}

}  // namespace lathe::acp
