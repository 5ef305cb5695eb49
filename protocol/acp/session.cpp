// ACP session lifecycle encoders and decoders.
#include "protocol/acp/session.h"

namespace lathe::acp {

Result<NewSessionRequest> NewSessionRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  NewSessionRequest req;
  req.cwd = r.str("cwd");
  req.additionalDirectories = r.optStrings("additionalDirectories").value_or(std::vector<std::string>{});
  auto servers = decodeMcpServers(r);
  if (!servers) return servers.error();
  req.mcpServers = std::move(servers).value();
  return finish(r, std::move(req));
}

void writeSessionSetup(json::Writer& w, const std::string& currentModeId, const std::vector<SessionMode>& availableModes,
                       const std::vector<ConfigOption>& configOptions) {
  if (!availableModes.empty()) {
    json::object(w, "modes", [&] {
      json::put(w, "currentModeId", currentModeId);
      json::array(w, "availableModes", [&] {
        for (const auto& mode : availableModes) {
          json::object(w, [&] {
            json::put(w, "id", mode.id);
            json::put(w, "name", mode.name);
            if (!mode.description.empty()) json::put(w, "description", mode.description);
          });
        }
      });
    });
  }
  if (!configOptions.empty()) {
    json::key(w, "configOptions");
    writeConfigOptions(w, configOptions);
  }
}

json::Raw NewSessionResponse::toJson() const {
  return {json::buildObject([&](json::Writer& w) {
    json::put(w, "sessionId", sessionId);
    writeSessionSetup(w, currentModeId, availableModes, configOptions);
  })};
}

Result<SetModeRequest> SetModeRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  SetModeRequest req;
  req.sessionId = r.str("sessionId");
  req.modeId = r.str("modeId");
  return finish(r, std::move(req));
}

Result<SessionRef> SessionRef::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  SessionRef ref;
  ref.sessionId = r.str("sessionId");
  return finish(r, std::move(ref));
}

}  // namespace lathe::acp
