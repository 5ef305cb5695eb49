// Encoders and decoders of the agent's calls to the client.
#include "protocol/acp/client_calls.h"

#include "protocol/base/enum_names.h"

namespace lathe::acp {

namespace {

constexpr EnumName<PermissionOptionKind> kPermissionOptionKinds[] = {
    {PermissionOptionKind::allow_once, "allow_once"},
    {PermissionOptionKind::allow_always, "allow_always"},
    {PermissionOptionKind::reject_once, "reject_once"},
    {PermissionOptionKind::reject_always, "reject_always"},
};

}  // namespace

const char* toString(PermissionOptionKind kind) { return nameOf(kPermissionOptionKinds, kind); }

json::Raw RequestPermissionRequest::toJson() const {
  return {json::build([&](json::Writer& w) { writeJson(w); })};
}

void RequestPermissionRequest::writeJson(json::Writer& w) const {
  json::object(w, [&] {
    json::put(w, "sessionId", sessionId);
    json::object(w, "toolCall", [&] { writeToolCallUpdateFields(w, toolCall); });
    json::array(w, "options", [&] {
      for (const auto& option : options) {
        json::object(w, [&] {
          json::put(w, "optionId", option.optionId);
          json::put(w, "name", option.name);
          json::put(w, "kind", toString(option.kind));
        });
      }
    });
  });
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
  return {json::buildObject([&](json::Writer& w) {
    json::put(w, "sessionId", sessionId);
    json::put(w, "path", path);
  })};
}

Result<std::string> readTextFileResult(const json::Value& result) {
  auto r = json::Reader::root(result, "result");
  std::string content = r.str("content");
  return finish(r, std::move(content));
}

json::Raw WriteTextFileRequest::toJson() const {
  return {json::buildObject([&](json::Writer& w) {
    json::put(w, "sessionId", sessionId);
    json::put(w, "path", path);
    json::put(w, "content", content);
  })};
}

}  // namespace lathe::acp
