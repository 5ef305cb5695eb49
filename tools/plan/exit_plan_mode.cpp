// exit_plan_mode: the model presents its finished plan (a file in the plans
// folder); the person reads it and picks the mode to carry it out in
// (autoEdit or default, announced to the editor), or keeps planning. The
// model then gets the plan's text with the new mode.
#include "tools/plan/plan_mode.h"
#include "tools/plan/plan_tools.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "plan_filename": {"type": "string", "description": "The file name of the finished plan in the plans folder (feature-x.md), not a full path."}
  },
  "required": ["plan_filename"]
})";

constexpr int64_t kMaxPlanBytes = 1024 * 1024;

// How the model and the person read each mode the person may pick.
std::string modeWords(const std::string& mode) {
  return mode == "autoEdit" ? "autoEdit mode (edits inside the workspace run without asking; commands are still asked about)"
                            : "default mode (edits and commands are asked about)";
}

class ExitPlanModeInvocation final : public ToolInvocation {
 public:
  ExitPlanModeInvocation(ToolContext context, std::string path) : context_(std::move(context)), path_(std::move(path)) {}

  std::string description() const override { return "Approve the plan " + path_; }
  std::vector<Location> locations() const override { return {Location{path_, std::nullopt}}; }

  Result<std::optional<ConfirmationDetails>> shouldConfirmExecute(const CancelToken& cancel) override {
    auto text = context_.files->readText(path_, cancel);
    if (!text) {
      problem_ = text.error().code == Errc::not_found
                     ? "The plan file " + path_ + " does not exist: write the plan there first, then ask for approval."
                     : "Cannot read the plan " + path_ + ": " + text.error().message;
      return std::optional<ConfirmationDetails>{};
    }
    if (text->find_first_not_of(" \t\r\n") == std::string::npos) {
      problem_ = "The plan file " + path_ + " is empty: write the plan into it first, then ask for approval.";
      return std::optional<ConfirmationDetails>{};
    }
    if (static_cast<int64_t>(text->size()) > kMaxPlanBytes) {
      problem_ = "The plan " + path_ + " is larger than 1 MB: shorten it to what the implementation needs.";
      return std::optional<ConfirmationDetails>{};
    }
    plan_ = std::move(text).value();
    return std::optional<ConfirmationDetails>{PlanConfirmation{path_, plan_}};
  }

  void setChosenOption(const std::string& optionId) override { chosen_ = optionId; }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled; the session stays in plan mode");
    if (!problem_.empty()) return ToolResult::failure(ErrorType::invalid_params, problem_);
    if (!context_.plan->active()) {
      return ToolResult::failure(ErrorType::invalid_params,
                                 "The session is not in plan mode; use enter_plan_mode first to design a plan.");
    }
    // Allowed without a question (settings): the plan is carried out asking as usual.
    const std::string mode = chosen_ == "autoEdit" ? "autoEdit" : "default";
    context_.plan->switchTo(mode);
    return ToolResult::text("The person approved the plan. Plan mode is over: the session is in " + modeWords(mode) +
                                ". Carry out the plan now, step by step, as written in " + path_ + ":\n\n" + plan_,
                            "Plan approved (" + mode + " mode): " + path_);
  }

 private:
  ToolContext context_;
  std::string path_;
  std::string plan_;
  std::string problem_;  // why it cannot be approved, found when asked
  std::string chosen_;
};

class ExitPlanModeTool final : public Tool {
 public:
  explicit ExitPlanModeTool(ToolContext context)
      : Tool(ToolInfo{.name = "exit_plan_mode",
                      .displayName = "Exit Plan Mode",
                      .description = "Ends planning: shows the person the finished plan (a Markdown file in the "
                                     "plans folder) and asks them to approve it and pick how its edits run. Call it "
                                     "only after the person agreed with the approach in the chat; it is the only way "
                                     "out of plan mode to the implementation. If they do not approve, revise the "
                                     "plan with them.",
                      .kind = Kind::switch_mode,
                      .parametersSchema = kSchema}),
        context_(std::move(context)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    std::string name = r.str("plan_filename");
    if (!r.ok()) return invalidParams(r.error().message);
    if (name.find_first_not_of(" \t") == std::string::npos) return invalidParams("params.plan_filename: is required");
    auto path = context_.plan->resolve(name);
    if (!path) return invalidParams("params.plan_filename: " + path.error().message);
    ToolContext context = context_;
    // Lathe's own folder is read from disk; a workspace's through the editor's buffers.
    if (!context.workspace->contains(*path) || !context.files) context.files = makeDiskFileStore();
    return {std::make_unique<ExitPlanModeInvocation>(std::move(context), std::move(path).value()), std::nullopt};
  }

 private:
  ToolContext context_;
};

}  // namespace

std::unique_ptr<Tool> makeExitPlanModeTool(const ToolContext& context) {
  return std::make_unique<ExitPlanModeTool>(context);
}

}  // namespace lathe::tools
