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
  return {
      json::buildObject([&](json::Writer& w) { writeSessionSetup(w, currentModeId, availableModes, configOptions); })};
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
  return {json::buildObject([&](json::Writer& w) {
    json::array(w, "sessions", [&] {
      for (const auto& info : sessions) {
        json::object(w, [&] {
          json::put(w, "sessionId", info.sessionId);
          json::put(w, "cwd", info.cwd);
          if (!info.additionalDirectories.empty()) {
            json::array(w, "additionalDirectories", [&] {
              for (const auto& dir : info.additionalDirectories) json::str(w, dir);
            });
          }
          if (!info.title.empty()) json::put(w, "title", info.title);
          if (!info.updatedAt.empty()) json::put(w, "updatedAt", info.updatedAt);
        });
      }
    });
    if (nextCursor) json::put(w, "nextCursor", *nextCursor);
  })};
}

}  // namespace lathe::acp
