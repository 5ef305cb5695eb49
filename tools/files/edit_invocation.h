// The confirm-then-write life the edit tools (write_file, replace) share: plan
// the change from the file's current text (through ToolContext::files), show
// it as a diff, and at execute write only if the file still holds the text
// that diff started from; then report a syntax error the change introduced.
// The approved text is kept as a fingerprint (size and hash), not a copy.
// Without a confirmation step (auto-approval), execute works on the text it
// finds. Runs on a worker thread.
#pragma once

#include <optional>
#include <string>

#include "tools/files/edit_support.h"
#include "tools/core/tool.h"
#include "tools/core/tool_context.h"

namespace lathe::tools {

// What a change would do, computed from the file's current text.
struct EditPlan {
  std::optional<std::string> oldText;  // normalized; nullopt when the file is new
  std::string newText;                 // normalized, as the diff shows it
  std::optional<std::string> bytes;    // what gets written, when it differs from newText
  size_t replacements = 0;
  bool flexible = false;  // matched ignoring indentation (replace's second chance)
  bool looseWhitespace = false;  // matched ignoring whitespace inside lines too (its third)
  const std::string& toWrite() const { return bytes ? *bytes : newText; }
};

struct PlannedEdit {
  EditPlan plan;
  std::optional<ToolError> error;
};

// What a path named when the person was asked: no symlink or other file may
// be swapped in before the write.
struct FileIdentity {
  bool exists = false;
  bool isLink = false;
  unsigned long long device = 0;
  unsigned long long inode = 0;
  std::string linkTarget;
  static FileIdentity of(const std::string& path);
  bool operator==(const FileIdentity&) const = default;
};

// Where an edit tool writes the path the model gave: inside the workspace,
// or, in plan mode, a plan file (tools/plan/plan_mode.h) with the context the
// invocation works in there (the plans folder its only root, the disk when
// that folder is Lathe's own rather than the workspace's).
struct EditTarget {
  std::string path;  // absolute
  ToolContext context;
  // A plan: why it is still asked about (a plans folder inside the
  // workspace), empty when it is not. nullopt: not a plan.
  std::optional<std::string> plan;
  std::optional<ToolError> error;
};
EditTarget editTargetOf(const ToolContext& context, std::string_view path);

class EditInvocation : public ToolInvocation {
 public:
  std::vector<Location> locations() const override { return {Location{path_, std::nullopt}}; }
  Result<std::optional<ConfirmationDetails>> shouldConfirmExecute(const CancelToken& cancel) override;
  ToolResult execute(const CancelToken& cancel, const OutputSink& updateOutput) override;

 protected:
  EditInvocation(ToolContext context, std::string path, std::optional<std::string> plan = std::nullopt);

  virtual PlannedEdit plan(const CancelToken& cancel) const = 0;
  virtual std::string confirmTitle() const = 0;
  // What the model is told after a successful write.
  virtual std::string summary(const EditPlan& plan) const = 0;

  const ToolContext& context() const { return context_; }
  const std::string& path() const { return path_; }

 private:
  ToolContext context_;
  std::string path_;  // absolute
  std::optional<std::string> plan_;  // a plan mode plan (see EditTarget)
  std::optional<TextFingerprint> approved_;  // the text the approved diff started from
  std::optional<FileIdentity> shown_;        // the file the person was shown (lstat at the question)
  std::optional<ToolError> confirmError_;
};

}  // namespace lathe::tools
