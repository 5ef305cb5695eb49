// ACP elicitation encoders and decoders.
#include "protocol/acp/elicitation.h"

#include "protocol/base/enum_names.h"

namespace lathe::acp {
namespace {

constexpr EnumName<ElicitationResponse::Action> kActions[] = {
    {ElicitationResponse::Action::accept, "accept"},
    {ElicitationResponse::Action::decline, "decline"},
    {ElicitationResponse::Action::cancel, "cancel"},
};

}  // namespace

const char* toString(ElicitationResponse::Action action) { return nameOf(kActions, action); }

void ElicitationRequest::writeJson(json::Writer& w) const {
  json::object(w, [&] {
    if (requestId.empty()) {
      json::put(w, "sessionId", sessionId);
    } else {
      json::put(w, "requestId", requestId);
    }
    if (!toolCallId.empty()) json::put(w, "toolCallId", toolCallId);
    json::put(w, "message", message);
    if (mode == Mode::form) {
      json::put(w, "mode", "form");
      json::put(w, "requestedSchema", requestedSchema.empty() ? json::Raw{R"({"type":"object","properties":{}})"}
                                                              : requestedSchema);
    } else {
      json::put(w, "mode", "url");
      json::put(w, "elicitationId", elicitationId);
      json::put(w, "url", url);
    }
  });
}

Result<ElicitationResponse> ElicitationResponse::fromJson(const json::Value& result) {
  auto r = json::Reader::root(result, "result");
  ElicitationResponse response;
  std::string action = r.str("action");
  if (auto known = valueOf(kActions, action)) {
    response.action = *known;
  } else if (r.ok()) {
    r.fail("result.action", "unknown action \"" + action + "\" (accept, decline or cancel)");
  }
  if (response.action == Action::accept && r.has("content")) {
    if (auto content = r.optObject("content")) response.content = r.rawMember("content");
  }
  return finish(r, std::move(response));
}

json::Raw elicitationCompleteParams(const std::string& elicitationId) {
  return {json::buildObject([&](json::Writer& w) { json::put(w, "elicitationId", elicitationId); })};
}

}  // namespace lathe::acp
