// A sub-agent's run limits.
#include "engine/subagents/child_limits.h"

namespace lathe::engine {

void ChildLimits::complete(std::string report) {
  std::lock_guard lock(mutex_);
  if (!report_) report_ = std::move(report);
}

std::optional<std::string> ChildLimits::report() const {
  std::lock_guard lock(mutex_);
  return report_;
}

bool ChildLimits::tokensSpent() const {
  std::lock_guard lock(mutex_);
  return tokensSpent_;
}

int64_t ChildLimits::tokens() const {
  std::lock_guard lock(mutex_);
  return tokens_;
}

void ChildLimits::beginGrace() {
  std::lock_guard lock(mutex_);
  grace_ = true;
  graceRequests_ = 0;
}

std::optional<TurnStop> ChildLimits::beforeModelRequest(History&, const CancelToken&) {
  std::lock_guard lock(mutex_);
  if (report_) return TurnStop{acp::StopReason::end_turn, ""};
  if (grace_) {
    if (graceRequests_++ > 0) return TurnStop{acp::StopReason::end_turn, ""};
    return std::nullopt;
  }
  if (tokens_ >= maxTokens_) {
    tokensSpent_ = true;
    return TurnStop{acp::StopReason::max_tokens, ""};
  }
  return std::nullopt;
}

CallVerdict ChildLimits::onFunctionCall(const FunctionCall& call) {
  std::lock_guard lock(mutex_);
  if (!grace_ || call.name == "complete_task") return {};
  return {CallVerdict::Action::refuse,
          "Not run: your limit is reached. Call complete_task now with what you have found.",
          acp::StopReason::end_turn};
}

void ChildLimits::onUpdate(const acp::SessionUpdate& update) {
  if (auto* usage = std::get_if<acp::UsageUpdate>(&update)) {
    std::lock_guard lock(mutex_);
    tokens_ += usage->used;
  }
}

}  // namespace lathe::engine
