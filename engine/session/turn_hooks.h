// Hook points of a prompt turn, called in this order on the turn's thread:
// before each model request (compression), on each streamed chunk (content
// loops), on each function call before it runs (tool loops), and on every
// update the editor is shown (persistence; the user's prompt is offered here
// as user_message_chunk too, so a recording can replay it). A session calls
// its hooks in the order they were added.
#pragma once

#include <optional>
#include <string>

#include "engine/model/model_provider.h"
#include "engine/session/history.h"
#include "protocol/acp/common.h"
#include "protocol/acp/updates.h"

namespace lathe::engine {

// A hook's wish to end the turn, with a sentence for the person.
struct TurnStop {
  acp::StopReason reason = acp::StopReason::end_turn;
  std::string message;
};

// What to do with a function call: run it, answer it without running it
// (the model reads `message`), or end the turn.
struct CallVerdict {
  enum class Action { run, refuse, stop } action = Action::run;
  std::string message;
  acp::StopReason stopReason = acp::StopReason::end_turn;
};

class TurnHooks {
 public:
  virtual ~TurnHooks() = default;
  // May rewrite the history (e.g. compress it) before it is sent.
  virtual std::optional<TurnStop> beforeModelRequest(History&, const CancelToken&) { return std::nullopt; }
  virtual std::optional<TurnStop> onChunk(const ModelChunk&) { return std::nullopt; }
  virtual CallVerdict onFunctionCall(const FunctionCall&) { return {}; }
  virtual void onUpdate(const acp::SessionUpdate&) {}
};

}  // namespace lathe::engine
