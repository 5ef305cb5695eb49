// ACP initialize encoders and decoders.
#include "protocol/acp/initialize.h"

namespace lathe::acp {

Result<InitializeRequest> InitializeRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  InitializeRequest req;
  req.protocolVersion = r.int64("protocolVersion");
  if (auto caps = r.optObject("clientCapabilities")) {
    if (auto fs = caps->optObject("fs")) {
      req.clientCapabilities.readTextFile = fs->optBool("readTextFile").value_or(false);
      req.clientCapabilities.writeTextFile = fs->optBool("writeTextFile").value_or(false);
    }
  }
  if (auto info = r.optObject("clientInfo")) req.clientName = info->optStr("name").value_or("");
  return finish(r, std::move(req));
}

namespace {

void writeCapabilities(json::Writer& w, const AgentCapabilities& caps) {
  w.StartObject();
  json::put(w, "loadSession", caps.loadSession);
  json::key(w, "promptCapabilities");
  w.StartObject();
  json::put(w, "image", caps.image);
  json::put(w, "audio", caps.audio);
  json::put(w, "embeddedContext", caps.embeddedContext);
  w.EndObject();
  json::key(w, "mcpCapabilities");
  w.StartObject();
  json::put(w, "http", caps.mcpHttp);
  json::put(w, "sse", caps.mcpSse);
  w.EndObject();
  json::key(w, "sessionCapabilities");
  w.StartObject();
  if (caps.sessionAdditionalDirectories) json::put(w, "additionalDirectories", json::Raw{"{}"});
  if (caps.sessionClose) json::put(w, "close", json::Raw{"{}"});
  if (caps.sessionList) json::put(w, "list", json::Raw{"{}"});
  if (caps.sessionResume) json::put(w, "resume", json::Raw{"{}"});
  w.EndObject();
  if (caps.logout) {
    json::key(w, "auth");
    w.StartObject();
    json::put(w, "logout", json::Raw{"{}"});
    w.EndObject();
  }
  w.EndObject();
}

}  // namespace

json::Raw InitializeResponse::toJson() const {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "protocolVersion", kProtocolVersion);
    json::key(w, "agentCapabilities");
    writeCapabilities(w, capabilities);
    json::key(w, "authMethods");
    w.StartArray();
    for (const auto& method : authMethods) {
      w.StartObject();
      json::put(w, "id", method.id);
      json::put(w, "name", method.name);
      if (!method.description.empty()) json::put(w, "description", method.description);
      w.EndObject();
    }
    w.EndArray();
    json::key(w, "agentInfo");
    w.StartObject();
    json::put(w, "name", agentInfo.name);
    json::put(w, "title", agentInfo.title);
    json::put(w, "version", agentInfo.version);
    w.EndObject();
    w.EndObject();
  })};
}

Result<AuthenticateRequest> AuthenticateRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  AuthenticateRequest req;
  req.methodId = r.str("methodId");
  if (auto meta = r.optObject("_meta")) {
    req.apiKey = meta->optStr("api-key");
    if (auto gateway = meta->optObject("gateway")) {
      req.gatewayBaseUrl = gateway->optStr("baseUrl");
      if (auto headers = gateway->optObject("headers")) {
        for (const auto& member : headers->value()->GetObject()) {
          std::string name(member.name.GetString(), member.name.GetStringLength());
          if (auto value = headers->optStr(name.c_str())) req.gatewayHeaders.emplace_back(name, *value);
        }
      }
    }
  }
  return finish(r, std::move(req));
}

Result<LogoutRequest> LogoutRequest::fromJson(const json::Value& params) {
  // Params may be absent or an object holding only _meta.
  if (!params.IsNull() && !params.IsObject()) return makeError(Errc::invalid_params, "params: expected an object");
  return LogoutRequest{};
}

}  // namespace lathe::acp
