// Tool call state transitions.
#include "engine/scheduler/call_state.h"

namespace lathe::engine {

const char* toString(CallState state) {
  switch (state) {
    case CallState::validating: return "validating";
    case CallState::awaiting_approval: return "awaiting_approval";
    case CallState::scheduled: return "scheduled";
    case CallState::executing: return "executing";
    case CallState::success: return "success";
    case CallState::error: return "error";
    case CallState::cancelled: return "cancelled";
  }
  return "error";
}

bool isFinal(CallState state) {
  return state == CallState::success || state == CallState::error || state == CallState::cancelled;
}

acp::ToolCallStatus toAcpStatus(CallState state) {
  switch (state) {
    case CallState::validating:
    case CallState::awaiting_approval:
    case CallState::scheduled: return acp::ToolCallStatus::pending;
    case CallState::executing: return acp::ToolCallStatus::in_progress;
    case CallState::success: return acp::ToolCallStatus::completed;
    case CallState::error:
    case CallState::cancelled: return acp::ToolCallStatus::failed;
  }
  return acp::ToolCallStatus::failed;
}

bool CallStateMachine::advance(CallState next) {
  bool legal = false;
  switch (state_) {
    case CallState::validating:
      legal = next == CallState::awaiting_approval || next == CallState::scheduled || next == CallState::error ||
              next == CallState::cancelled;
      break;
    case CallState::awaiting_approval:
      legal = next == CallState::scheduled || next == CallState::error || next == CallState::cancelled;
      break;
    case CallState::scheduled:
      legal = next == CallState::executing || next == CallState::cancelled;
      break;
    case CallState::executing:
      legal = next == CallState::success || next == CallState::error || next == CallState::cancelled;
      break;
    case CallState::success:
    case CallState::error:
    case CallState::cancelled: legal = false; break;
  }
  if (legal) state_ = next;
  return legal;
}

}  // namespace lathe::engine
