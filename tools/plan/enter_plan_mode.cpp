// enter_plan_mode: the model asks to plan before it changes anything; the
// person agrees (or not), and the session switches to plan mode, announced
// to the editor like any mode change.
#include "tools/plan/plan_mode.h"
#include "tools/plan/plan_tools.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "reason": {"type": "string", "description": "A short reason for planning first, shown to the person."}
  }
})";

class EnterPlanModeInvocation final : public ToolInvocation {
 public:
  EnterPlanModeInvocation(std::shared_ptr<PlanMode> plan, std::string reason)
      : plan_(std::move(plan)), reason_(std::move(reason)) {}

  std::string description() const override { return reason_.empty() ? "Plan before changing anything" : reason_; }

  Result<std::optional<ConfirmationDetails>> shouldConfirmExecute(const CancelToken&) override {
    return std::optional<ConfirmationDetails>{InfoConfirmation{
        "Switch to plan mode? Until you approve a plan, the agent may only read, search and write plans (in " +
            plan_->directory() + ").",
        {}}};
  }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled before switching to plan mode");
    if (plan_->active()) return ToolResult::failure(ErrorType::invalid_params, "The session is in plan mode already.");
    auto folder = plan_->folder();
    if (!folder) return ToolResult::failure(ErrorType::execution_failed, folder.error().message);
    plan_->switchTo("plan");
    return ToolResult::text(
        "The session is in plan mode now: use read-only tools to research, write the plan as a Markdown file "
        "in " + (*folder)->cwd() + " with write_file (a file name such as feature-x.md is enough), and when the "
        "person agrees with it, call exit_plan_mode with that file name to ask for approval.",
        reason_.empty() ? "Switched to plan mode" : "Switched to plan mode: " + reason_);
  }

 private:
  std::shared_ptr<PlanMode> plan_;
  std::string reason_;
};

class EnterPlanModeTool final : public Tool {
 public:
  explicit EnterPlanModeTool(std::shared_ptr<PlanMode> plan)
      : Tool(ToolInfo{.name = "enter_plan_mode",
                      .displayName = "Enter Plan Mode",
                      .description = "Switches the session to plan mode, to research, weigh the options and write a "
                                     "plan with read-only tools before any code changes. Use it for a complex or "
                                     "risky change when the person would want to agree on the approach first. The "
                                     "person is asked first.",
                      .kind = Kind::switch_mode,
                      .parametersSchema = kSchema}),
        plan_(std::move(plan)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    std::string reason = r.optStr("reason").value_or("");
    if (!r.ok()) return invalidParams(r.error().message);
    return {std::make_unique<EnterPlanModeInvocation>(plan_, std::move(reason)), std::nullopt};
  }

 private:
  std::shared_ptr<PlanMode> plan_;
};

}  // namespace

std::unique_ptr<Tool> makeEnterPlanModeTool(const ToolContext& context) {
  return std::make_unique<EnterPlanModeTool>(context.plan);
}

}  // namespace lathe::tools
