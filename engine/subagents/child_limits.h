// The end of a sub-agent's run, as hooks of the child's session: the turn
// stops once complete_task handed back the report; the tokens of all its
// requests are held to a budget; and after a limit the child gets one grace
// request in which only complete_task runs, so that what it found is not
// lost. Hooks run on the child's turn thread; complete() on a call's worker.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "engine/session/turn_hooks.h"

namespace lathe::engine {

class ChildLimits final : public TurnHooks {
 public:
  explicit ChildLimits(int64_t maxTokens) : maxTokens_(maxTokens) {}

  // complete_task ran with this report.
  void complete(std::string report);
  std::optional<std::string> report() const;
  // The budget stopped the turn.
  bool tokensSpent() const;
  int64_t tokens() const;
  // From now on: one more model request, in which only complete_task runs.
  void beginGrace();

  std::optional<TurnStop> beforeModelRequest(History& history, const CancelToken& cancel) override;
  CallVerdict onFunctionCall(const FunctionCall& call) override;
  void onUpdate(const acp::SessionUpdate& update) override;

 private:
  const int64_t maxTokens_;
  mutable std::mutex mutex_;
  std::optional<std::string> report_;
  int64_t tokens_ = 0;
  bool tokensSpent_ = false;
  bool grace_ = false;
  int graceRequests_ = 0;
};

}  // namespace lathe::engine
