// ACP v1 basics shared by every area: the protocol version, the enums that
// several messages carry, and the empty result. Pure.
#pragma once

#include "protocol/base/json.h"
#include "protocol/base/result.h"

namespace lathe::acp {

inline constexpr int kProtocolVersion = 1;
// The notification either side sends to give up on one of its requests.
inline constexpr const char* kCancelRequestMethod = "$/cancel_request";

enum class ToolKind { read, edit, del, move, search, execute, think, fetch, switch_mode, other };
enum class ToolCallStatus { pending, in_progress, completed, failed };
enum class StopReason { end_turn, max_tokens, max_turn_requests, refusal, cancelled };

const char* toString(ToolKind kind);
const char* toString(ToolCallStatus status);
const char* toString(StopReason reason);

// A result with no fields: `{}` on the wire, never null.
struct Empty {
  json::Raw toJson() const { return json::Raw{"{}"}; }
};

// Ends a decoder: the value, or the reader's first error.
template <class T>
Result<T> finish(json::Reader& r, T value) {
  if (!r.ok()) return r.error();
  return value;
}

}  // namespace lathe::acp
