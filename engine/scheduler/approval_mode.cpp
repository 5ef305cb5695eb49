// Approval mode names.
#include "engine/scheduler/approval_mode.h"

#include "protocol/base/enum_names.h"

namespace lathe::engine {
namespace {

// Wire ids; "auto_edit" is Gemini CLI's spelling, read but never written.
constexpr EnumName<ApprovalMode> kApprovalModes[] = {
    {ApprovalMode::standard, "default"}, {ApprovalMode::autoEdit, "autoEdit"}, {ApprovalMode::autoEdit, "auto_edit"},
    {ApprovalMode::yolo, "yolo"},        {ApprovalMode::plan, "plan"},
};

}  // namespace

const char* toString(ApprovalMode mode) { return nameOf(kApprovalModes, mode); }

std::optional<ApprovalMode> parseApprovalMode(const std::string& id) { return valueOf(kApprovalModes, id); }

}  // namespace lathe::engine
