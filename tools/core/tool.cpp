// Tool base behaviour shared by every tool: declarations and validated builds.
#include "tools/core/tool.h"

#include "protocol/base/enum_names.h"
#include "tools/core/schema_validator.h"
#include "tools/core/wait_for_previous.h"

namespace lathe::tools {

namespace {

// Tool kinds as ACP spells them; error types as Gemini CLI's ToolErrorType does.
constexpr EnumName<Kind> kKinds[] = {
    {Kind::read, "read"},     {Kind::edit, "edit"},
    {Kind::del, "delete"},    {Kind::move, "move"},
    {Kind::search, "search"}, {Kind::execute, "execute"},
    {Kind::think, "think"},   {Kind::agent, "agent"},
    {Kind::fetch, "fetch"},   {Kind::communicate, "communicate"},
    {Kind::plan, "plan"},     {Kind::switch_mode, "switch_mode"},
    {Kind::other, "other"},
};

}  // namespace

const char* toString(Kind kind) { return nameOf(kKinds, kind); }

bool isReadOnlyKind(Kind kind) { return kind == Kind::read || kind == Kind::search || kind == Kind::fetch; }

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
