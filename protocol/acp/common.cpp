// ACP enum spellings.
#include "protocol/acp/common.h"

#include "protocol/base/enum_names.h"

namespace lathe::acp {
namespace {

constexpr EnumName<ToolKind> kToolKinds[] = {
    {ToolKind::read, "read"},   {ToolKind::edit, "edit"},     {ToolKind::del, "delete"},
    {ToolKind::move, "move"},   {ToolKind::search, "search"}, {ToolKind::execute, "execute"},
    {ToolKind::think, "think"}, {ToolKind::fetch, "fetch"},   {ToolKind::switch_mode, "switch_mode"},
    {ToolKind::other, "other"},
};

constexpr EnumName<ToolCallStatus> kToolCallStatuses[] = {
    {ToolCallStatus::pending, "pending"},
    {ToolCallStatus::in_progress, "in_progress"},
    {ToolCallStatus::completed, "completed"},
    {ToolCallStatus::failed, "failed"},
};

constexpr EnumName<StopReason> kStopReasons[] = {
    {StopReason::end_turn, "end_turn"},
    {StopReason::max_tokens, "max_tokens"},
    {StopReason::max_turn_requests, "max_turn_requests"},
    {StopReason::refusal, "refusal"},
    {StopReason::cancelled, "cancelled"},
};

}  // namespace

const char* toString(ToolKind kind) { return nameOf(kToolKinds, kind); }
const char* toString(ToolCallStatus status) { return nameOf(kToolCallStatuses, status); }
const char* toString(StopReason reason) { return nameOf(kStopReasons, reason); }

}  // namespace lathe::acp
