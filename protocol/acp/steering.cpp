// _session/steering encoding.
#include "protocol/acp/steering.h"

#include "protocol/base/enum_names.h"

namespace lathe::acp {
namespace {

constexpr EnumName<SteeringOutcome> kOutcomes[] = {
    {SteeringOutcome::injected, "injected"},
    {SteeringOutcome::startedNewTurn, "startedNewTurn"},
    {SteeringOutcome::promptRequired, "promptRequired"},
};

}  // namespace

Result<SteeringRequest> SteeringRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  SteeringRequest req;
  req.sessionId = r.str("sessionId");
  for (auto& item : r.array("prompt")) {
    auto block = decodeContentBlock(item);
    if (!block) return block.error();
    req.prompt.push_back(std::move(block).value());
  }
  if (r.ok() && req.prompt.empty()) r.fail("params.prompt", "must hold at least one content block");
  if (auto meta = r.optObject("_meta")) {
    if (auto steering = meta->optObject("steering")) {
      if (auto idle = steering->optStr("idleBehavior")) {
        if (*idle != "promptRequired") {
          steering->fail("params._meta.steering.idleBehavior", "unsupported idle behavior \"" + *idle + "\"");
        }
        req.promptRequiredWhenIdle = true;
      }
    }
  }
  return finish(r, std::move(req));
}

json::Raw SteeringResponse::toJson() const {
  return {json::buildObject([&](json::Writer& w) {
    json::put(w, "outcome", nameOf(kOutcomes, outcome));
    if (outcome == SteeringOutcome::promptRequired) json::put(w, "reason", "noRunningTurn");
  })};
}

}  // namespace lathe::acp
