// ACP enum spellings.
#include "protocol/acp/common.h"

namespace lathe::acp {

const char* toString(ToolKind kind) {
  switch (kind) {
    case ToolKind::read: return "read";
    case ToolKind::edit: return "edit";
    case ToolKind::del: return "delete";
    case ToolKind::move: return "move";
    case ToolKind::search: return "search";
    case ToolKind::execute: return "execute";
    case ToolKind::think: return "think";
    case ToolKind::fetch: return "fetch";
    case ToolKind::switch_mode: return "switch_mode";
    case ToolKind::other: return "other";
  }
  return "other";
}

const char* toString(ToolCallStatus status) {
  switch (status) {
    case ToolCallStatus::pending: return "pending";
    case ToolCallStatus::in_progress: return "in_progress";
    case ToolCallStatus::completed: return "completed";
    case ToolCallStatus::failed: return "failed";
  }
  return "failed";
}

const char* toString(StopReason reason) {
  switch (reason) {
    case StopReason::end_turn: return "end_turn";
    case StopReason::max_tokens: return "max_tokens";
    case StopReason::max_turn_requests: return "max_turn_requests";
    case StopReason::refusal: return "refusal";
    case StopReason::cancelled: return "cancelled";
  }
  return "end_turn";
}

}  // namespace lathe::acp
