// Encoders and decoders of the agent's calls to the client.
#include "protocol/acp/client_calls.h"

namespace lathe::acp {

const char* toString(PermissionOptionKind kind) {
  switch (kind) {
    case PermissionOptionKind::allow_once: return "allow_once";
    case PermissionOptionKind::allow_always: return "allow_always";
    case PermissionOptionKind::reject_once: return "reject_once";
    case PermissionOptionKind::reject_always: return "reject_always";
  }
  return "reject_once";
}

json::Raw RequestPermissionRequest::toJson() const {
  return {json::build([&](json::Writer& w) { writeJson(w); })};
}

void RequestPermissionRequest::writeJson(json::Writer& w) const {
  w.StartObject();
  json::put(w, "sessionId", sessionId);
  json::key(w, "toolCall");
  w.StartObject();
  writeToolCallUpdateFields(w, toolCall);
  w.EndObject();
  json::key(w, "options");
  w.StartArray();
  for (const auto& option : options) {
    w.StartObject();
    json::put(w, "optionId", option.optionId);
    json::put(w, "name", option.name);
    json::put(w, "kind", toString(option.kind));
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

Result<RequestPermissionResponse> RequestPermissionResponse::fromJson(const json::Value& result) {
  auto r = json::Reader::root(result, "result");
  auto outcome = r.object("outcome");
  RequestPermissionResponse resp;
  std::string kind = outcome.str("outcome");
  if (kind == "selected") {
    resp.cancelled = false;
    resp.optionId = outcome.str("optionId");
  } else if (kind != "cancelled" && r.ok()) {
    r.fail("result.outcome.outcome", "unknown outcome \"" + kind + "\"");
  }
  return finish(r, std::move(resp));
}

json::Raw ReadTextFileRequest::toJson() const {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sessionId);
    json::put(w, "path", path);
    w.EndObject();
  })};
}

Result<std::string> readTextFileResult(const json::Value& result) {
  auto r = json::Reader::root(result, "result");
  std::string content = r.str("content");
  return finish(r, std::move(content));
}

json::Raw WriteTextFileRequest::toJson() const {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sessionId);
    json::put(w, "path", path);
    json::put(w, "content", content);
    w.EndObject();
  })};
}

}  // namespace lathe::acp
