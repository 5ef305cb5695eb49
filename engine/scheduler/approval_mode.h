// The session's approval mode: how much runs without asking.
#pragma once

#include <optional>
#include <string>

namespace lathe::engine {

enum class ApprovalMode { standard, autoEdit, yolo, plan };  // "default" is a keyword
const char* toString(ApprovalMode mode);  // wire ids: default, autoEdit, yolo, plan
std::optional<ApprovalMode> parseApprovalMode(const std::string& id);

}  // namespace lathe::engine
