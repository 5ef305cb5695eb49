// Tool call state transitions.
#include "engine/scheduler/call_state.h"

#include "protocol/base/enum_names.h"

namespace lathe::engine {

namespace {

constexpr EnumName<CallState> kCallStates[] = {
    {CallState::validating, "validating"}, {CallState::awaiting_approval, "awaiting_approval"},
    {CallState::scheduled, "scheduled"},   {CallState::executing, "executing"},
    {CallState::success, "success"},       {CallState::error, "error"},
    {CallState::cancelled, "cancelled"},
};

}  // namespace

const char* toString(CallState state) { return nameOf(kCallStates, state); }

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
