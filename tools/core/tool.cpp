// Tool base behaviour shared by every tool: declarations and validated builds.
#include "tools/core/tool.h"

#include "tools/core/schema_validator.h"
#include "tools/core/wait_for_previous.h"

namespace lathe::tools {

const char* toString(Kind kind) {
  switch (kind) {
    case Kind::read: return "read";
    case Kind::edit: return "edit";
    case Kind::del: return "delete";
    case Kind::move: return "move";
    case Kind::search: return "search";
    case Kind::execute: return "execute";
    case Kind::think: return "think";
    case Kind::agent: return "agent";
    case Kind::fetch: return "fetch";
    case Kind::communicate: return "communicate";
    case Kind::plan: return "plan";
    case Kind::switch_mode: return "switch_mode";
    case Kind::other: return "other";
  }
  return "other";
}

bool isReadOnlyKind(Kind kind) { return kind == Kind::read || kind == Kind::search || kind == Kind::fetch; }

const char* toString(ErrorType type) {
  switch (type) {
    case ErrorType::invalid_params: return "invalid_tool_params";
    case ErrorType::file_not_found: return "file_not_found";
    case ErrorType::path_not_in_workspace: return "path_not_in_workspace";
    case ErrorType::is_directory: return "target_is_directory";
    case ErrorType::not_a_directory: return "path_is_not_a_directory";
    case ErrorType::no_occurrence_found: return "edit_no_occurrence_found";
    case ErrorType::occurrence_count_mismatch: return "edit_expected_occurrence_mismatch";
    case ErrorType::file_too_large: return "file_too_large";
    case ErrorType::binary_file: return "binary_file";
    case ErrorType::permission_denied: return "permission_denied";
    case ErrorType::execution_failed: return "execution_failed";
    case ErrorType::cancelled: return "cancelled";
  }
  return "execution_failed";
}

ToolResult ToolResult::text(std::string llm, std::string display) {
  ToolResult result;
  result.llmContent.push_back(LlmPart{std::move(llm), {}, {}});
  result.returnDisplay = std::move(display);
  return result;
}

ToolResult ToolResult::failure(ErrorType type, std::string message) {
  ToolResult result = text("Error: " + message, "Error: " + message);
  result.error = ToolError{type, std::move(message)};
  return result;
}

BuildResult buildFailure(ErrorType type, std::string message) { return {nullptr, ToolError{type, std::move(message)}}; }

BuildResult invalidParams(std::string message) { return buildFailure(ErrorType::invalid_params, std::move(message)); }

Tool::Tool(ToolInfo info) : info_(std::move(info)), validator_(SchemaValidator::shared(info_.parametersSchema)) {}

Tool::~Tool() = default;

BuildResult Tool::build(const json::Value& params) const {
  if (!params.IsObject()) return invalidParams("params: must be an object");
  if (auto wait = params.FindMember(kWaitForPrevious); wait != params.MemberEnd()) {
    // The scheduler's parameter, not the tool's: checked, then taken out.
    if (!wait->value.IsBool()) {
      return invalidParams(std::string("params/") + kWaitForPrevious + ": must be boolean");
    }
    json::Document rest;
    rest.CopyFrom(params, rest.GetAllocator());
    rest.RemoveMember(kWaitForPrevious);
    return build(rest);
  }
  if (auto problem = validator_->validate(params)) return invalidParams(*problem);
  return createInvocation(params);
}

}  // namespace lathe::tools
