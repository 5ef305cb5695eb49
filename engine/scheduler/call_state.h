// The life of one tool call: validating -> scheduled | awaiting_approval ->
// executing -> success | error | cancelled. A call in a final state never
// changes again. Owned by the thread running the call.
#pragma once

#include "protocol/acp/common.h"

namespace lathe::engine {

enum class CallState { validating, awaiting_approval, scheduled, executing, success, error, cancelled };

const char* toString(CallState state);
acp::ToolCallStatus toAcpStatus(CallState state);

class CallStateMachine {
 public:
  CallState state() const { return state_; }
  // Moves to next when the transition is legal; returns false (and stays) otherwise.
  bool advance(CallState next);

 private:
  CallState state_ = CallState::validating;
};

}  // namespace lathe::engine
