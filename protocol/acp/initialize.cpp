// ACP initialize encoders and decoders.
#include "protocol/acp/initialize.h"

namespace lathe::acp {
namespace {

// A capability is advertised by an object ({} or with fields); anything else
// (absent, null, a wrong type) means it is not: the schema reads a bad value
// as the default.
bool advertised(const json::Value* parent, const char* key) {
  const json::Value* v = parent && parent->IsObject() ? json::find(*parent, key) : nullptr;
  return v && v->IsObject();
}

}  // namespace

Result<InitializeRequest> InitializeRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  InitializeRequest req;
  req.protocolVersion = r.int64("protocolVersion");
  if (auto caps = r.optObject("clientCapabilities")) {
    if (auto fs = caps->optObject("fs")) {
      req.clientCapabilities.readTextFile = fs->optBool("readTextFile").value_or(false);
      req.clientCapabilities.writeTextFile = fs->optBool("writeTextFile").value_or(false);
    }
    const json::Value* all = caps->value();
    req.clientCapabilities.subagents = advertised(all, "subagents");
    const json::Value* elicitation = json::find(*all, "elicitation");
    req.clientCapabilities.elicitationForm = advertised(elicitation, "form");
    req.clientCapabilities.elicitationUrl = advertised(elicitation, "url");
    const json::Value* session = json::find(*all, "session");
    req.clientCapabilities.compaction = advertised(session, "compaction");
    req.clientCapabilities.notices = advertised(session, "notices");
    // Booleans the schema reads as false when they are anything else.
    const json::Value* terminal = json::find(*all, "terminal");
    req.clientCapabilities.terminal = terminal && terminal->IsBool() && terminal->GetBool();
    const json::Value* meta = json::find(*all, "_meta");
    const json::Value* output = meta && meta->IsObject() ? json::find(*meta, "terminal_output") : nullptr;
    req.clientCapabilities.terminalOutput = output && output->IsBool() && output->GetBool();
  }
  if (auto info = r.optObject("clientInfo")) req.clientName = info->optStr("name").value_or("");
  return finish(r, std::move(req));
}

namespace {

void writeCapabilities(json::Writer& w, const AgentCapabilities& caps) {
  json::object(w, [&] {
    json::put(w, "loadSession", caps.loadSession);
    json::object(w, "promptCapabilities", [&] {
      json::put(w, "image", caps.image);
      json::put(w, "audio", caps.audio);
      json::put(w, "embeddedContext", caps.embeddedContext);
    });
    json::object(w, "mcpCapabilities", [&] {
      json::put(w, "http", caps.mcpHttp);
      json::put(w, "sse", caps.mcpSse);
    });
    json::object(w, "sessionCapabilities", [&] {
      if (caps.sessionAdditionalDirectories) json::put(w, "additionalDirectories", json::Raw{"{}"});
      if (caps.sessionClose) json::put(w, "close", json::Raw{"{}"});
      if (caps.sessionList) json::put(w, "list", json::Raw{"{}"});
      if (caps.sessionResume) json::put(w, "resume", json::Raw{"{}"});
      if (caps.sessionDelete) json::put(w, "delete", json::Raw{"{}"});
      if (caps.sessionFork) json::put(w, "fork", json::Raw{"{}"});
    });
    if (caps.logout) json::object(w, "auth", [&] { json::put(w, "logout", json::Raw{"{}"}); });
  });
}

}  // namespace

json::Raw InitializeResponse::toJson() const {
  return {json::buildObject([&](json::Writer& w) {
    json::put(w, "protocolVersion", kProtocolVersion);
    json::key(w, "agentCapabilities");
    writeCapabilities(w, capabilities);
    json::array(w, "authMethods", [&] {
      for (const auto& method : authMethods) {
        json::object(w, [&] {
          json::put(w, "id", method.id);
          json::put(w, "name", method.name);
          if (!method.description.empty()) json::put(w, "description", method.description);
          if (!method.meta.empty()) json::put(w, "_meta", method.meta);
        });
      }
    });
    json::object(w, "agentInfo", [&] {
      json::put(w, "name", agentInfo.name);
      json::put(w, "title", agentInfo.title);
      json::put(w, "version", agentInfo.version);
    });
    // Extensions are announced at the top, where the clients that use them look.
    if (capabilities.steering) {
      json::object(w, "_meta", [&] { json::object(w, "steering", [&] { json::put(w, "supported", true); }); });
    }
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
