// URL elicitation encoders and decoders.
#include "protocol/acp/url_elicitation.h"

namespace lathe::acp {

json::Raw UrlElicitationRequest::toJson() const {
  return {json::buildObject([&](json::Writer& w) {
    json::put(w, "mode", "url");
    json::put(w, "elicitationId", elicitationId);
    json::put(w, "url", url);
    json::put(w, "message", message);
    json::put(w, "requestId", requestId);
  })};
}

Result<UrlElicitationResponse> UrlElicitationResponse::fromJson(const json::Value& result) {
  auto r = json::Reader::root(result);
  UrlElicitationResponse out;
  out.action = r.str("action");
  return finish(r, std::move(out));
}

json::Raw CompleteElicitationNotification::toJson() const {
  return {json::buildObject([&](json::Writer& w) { json::put(w, "elicitationId", elicitationId); })};
}

}  // namespace lathe::acp
