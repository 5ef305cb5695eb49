// _session/steering, the extension claude-agent-acp and codex-acp share for
// text that joins a prompt turn already running (advertised as the
// InitializeResponse's _meta.steering.supported). Not in the ACP schema. Pure.
#pragma once

#include <string>
#include <vector>

#include "protocol/acp/content.h"

namespace lathe::acp {

inline constexpr const char* kSteeringMethod = "_session/steering";

struct SteeringRequest {
  std::string sessionId;
  std::vector<ContentBlock> prompt;  // never empty
  // _meta.steering.idleBehavior "promptRequired": with no turn running, the
  // text is handed back (promptRequired) instead of starting a turn of its own.
  bool promptRequiredWhenIdle = false;
  static Result<SteeringRequest> fromJson(const json::Value& params);
};

enum class SteeringOutcome { injected, startedNewTurn, promptRequired };

struct SteeringResponse {
  SteeringOutcome outcome = SteeringOutcome::injected;
  json::Raw toJson() const;
};

}  // namespace lathe::acp
