// Confirmation and writing for the edit tools.
#include "tools/files/edit_invocation.h"

#include <sys/stat.h>
#include <unistd.h>

#include "tools/core/hard_links.h"
#include "tools/plan/plan_mode.h"
#include "tools/files/sensitive_paths.h"
#include "tools/files/syntax_warning.h"

namespace lathe::tools {

FileIdentity FileIdentity::of(const std::string& path) {
  FileIdentity id;
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return id;
  id.exists = true;
  id.isLink = S_ISLNK(st.st_mode);
  id.device = st.st_dev;
  id.inode = st.st_ino;
  if (id.isLink) {
    char target[4096];
    ssize_t n = ::readlink(path.c_str(), target, sizeof target - 1);
    if (n > 0) id.linkTarget.assign(target, static_cast<size_t>(n));
  }
  return id;
}

namespace {

// Why writing `path` now would not write the file that was shown, if so.
std::optional<std::string> swapped(const Workspace& workspace, const std::string& path,
                                   const std::optional<FileIdentity>& shown) {
  if (shown && FileIdentity::of(path) != *shown) {
    return path + " was replaced after the change was shown (another file or a symbolic link now stands there); "
                  "nothing was written. Read the file again and retry.";
  }
  if (auto resolved = workspace.resolve(path); !resolved || *resolved != path) {
    return path + " no longer leads to the file inside the workspace that was shown (a folder on the way was "
                  "replaced); nothing was written.";
  }
  if (auto why = outsideHardLinks(workspace, path)) return *why + " Nothing was written.";
  return std::nullopt;
}

}  // namespace

EditTarget editTargetOf(const ToolContext& context, std::string_view path) {
  EditTarget target{.path = {}, .context = context, .plan = std::nullopt, .error = std::nullopt};
  if (!context.plan || !context.plan->active()) {
    auto resolved = resolveToolPath(*context.workspace, path);
    target.path = std::move(resolved.path);
    target.error = std::move(resolved.error);
    return target;
  }
  auto plan = context.plan->resolve(path);
  auto folder = context.plan->folder();
  if (!plan || !folder) {
    target.error = ToolError{ErrorType::path_not_in_workspace, (plan ? folder.error() : plan.error()).message};
    return target;
  }
  target.path = std::move(plan).value();
  target.context.workspace = std::move(folder).value();
  if (context.workspace->contains(target.path)) {
    // A folder of the workspace's (settings named it): written as any edit there is, asked about.
    std::string why = sensitiveEditReason(*context.workspace, target.path);
    target.plan = why.empty() ? "it is in the workspace (general.plan.directory names a folder there)" : why;
  } else {
    target.context.files = makeDiskFileStore();  // Lathe's own folder, no editor buffer
    target.plan = "";
  }
  return target;
}

EditInvocation::EditInvocation(ToolContext context, std::string path, std::optional<std::string> plan)
    : context_(std::move(context)), path_(std::move(path)), plan_(std::move(plan)) {
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
  shown_ = FileIdentity::of(path_);
  EditConfirmation confirmation{confirmTitle(),
                                FileDiff{path_, std::move(planned.plan.oldText), std::move(planned.plan.newText)},
                                plan_ ? *plan_ : sensitiveEditReason(*context_.workspace, path_), plan_.has_value()};
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
  if (auto why = swapped(*context_.workspace, path_, shown_)) return ToolResult::failure(ErrorType::execution_failed, *why);
  // The bytes it held, as the store has them (an open buffer's), so a rewind puts them back exactly.
  std::optional<std::string> before;
  if (context_.changes && change.oldText) {
    auto held = context_.files->readText(path_, cancel);
    if (!held) return ToolResult::failure(storeErrorType(held.error()), "Failed to read " + path_ + ": " + held.error().message);
    before = std::move(held).value();
  }
  if (Status written = context_.files->writeTextExact(path_, change.toWrite(), cancel); !written) {
    return ToolResult::failure(storeErrorType(written.error()), "Failed to write " + path_ + ": " + written.error().message);
  }
  if (context_.changes) context_.changes->wrote(path_, before, change.toWrite());
  ToolResult result;
  result.llmContent.push_back(LlmPart{summary(change), {}, {}});
  addSyntaxWarning(result, path_, change.oldText, change.newText, cancel);
  result.returnDisplay = FileDiff{path_, std::move(change.oldText), std::move(change.newText)};
  return result;
}

}  // namespace lathe::tools
