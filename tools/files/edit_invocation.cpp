// Confirmation and writing for the edit tools.
#include "tools/files/edit_invocation.h"

#include "tools/files/syntax_warning.h"

namespace lathe::tools {

EditInvocation::EditInvocation(ToolContext context, std::string path)
    : context_(std::move(context)), path_(std::move(path)) {
  if (!context_.files) context_.files = makeDiskFileStore();
}

Result<std::optional<ConfirmationDetails>> EditInvocation::shouldConfirmExecute(const CancelToken& cancel) {
  PlannedEdit planned = plan(cancel);
  if (planned.error) {
    // Nothing to confirm; execute reports this problem and writes nothing,
    // even if the file changed since so that the change would apply now.
    confirmError_ = planned.error;
    return std::optional<ConfirmationDetails>{};
  }
  approved_ = TextFingerprint::of(planned.plan.oldText);
  EditConfirmation confirmation{confirmTitle(),
                                FileDiff{path_, std::move(planned.plan.oldText), std::move(planned.plan.newText)}};
  return std::optional<ConfirmationDetails>{std::move(confirmation)};
}

ToolResult EditInvocation::execute(const CancelToken& cancel, const OutputSink&) {
  if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled before changing " + path_);
  if (confirmError_) return ToolResult::failure(confirmError_->type, confirmError_->message);
  PlannedEdit planned = plan(cancel);
  if (planned.error) return ToolResult::failure(planned.error->type, planned.error->message);
  EditPlan& change = planned.plan;
  if (approved_ && *approved_ != TextFingerprint::of(change.oldText)) {
    return ToolResult::failure(ErrorType::execution_failed,
                               path_ + " changed after this change was proposed and approved; nothing was written. "
                                       "Read the file again and retry against its current content.");
  }
  if (Status written = context_.files->writeText(path_, change.toWrite(), cancel); !written) {
    return ToolResult::failure(storeErrorType(written.error()), "Failed to write " + path_ + ": " + written.error().message);
  }
  ToolResult result;
  result.llmContent.push_back(LlmPart{summary(change), {}, {}});
  addSyntaxWarning(result, path_, change.oldText, change.newText, cancel);
  result.returnDisplay = FileDiff{path_, std::move(change.oldText), std::move(change.newText)};
  return result;
}

}  // namespace lathe::tools
