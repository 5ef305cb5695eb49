// write_file: replaces a file's whole content, or creates it. Reads and writes
// only through ToolContext::files (the disk, or the editor's buffers). An
// existing file keeps its BOM, line endings and final newline; a new file is
// written exactly as the model gave it. Runs on a worker thread.
//
// Approval holds: once shouldConfirmExecute showed a diff, execute writes only
// if the file still has the text that diff started from; if it changed in the
// meantime, nothing is written and the model is told to read it again. The
// approved text is remembered as a fingerprint (size and 64-bit hash), not a
// copy. Without a confirmation step (auto-approval) execute works on the text
// it finds.
#include <sys/stat.h>

#include "tools/builtin_tools.h"
#include "tools/edit_support.h"
#include "tools/syntax_warning.h"
#include "tools/text_format.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "Path of the file to write: absolute, or relative to the workspace root. Missing parent directories are created."},
    "content": {"type": "string", "description": "The complete new content of the file."}
  },
  "required": ["file_path", "content"]
})";

// What a write would do, computed from the file's current text.
struct Plan {
  std::optional<std::string> oldText;  // normalized; nullopt when the file is new
  std::string newText;                 // normalized, as the diff shows it
  std::optional<std::string> bytes;    // what gets written, when it differs from newText
  const std::string& toWrite() const { return bytes ? *bytes : newText; }
};
struct Planned {
  Plan plan;
  std::optional<ToolError> error;
};

class WriteFileInvocation final : public ToolInvocation {
 public:
  WriteFileInvocation(ToolContext context, std::string path, std::string content)
      : context_(std::move(context)), path_(std::move(path)), content_(std::move(content)) {}

  std::string description() const override { return "Writing to " + context_.workspace->relative(path_); }

  std::vector<Location> locations() const override { return {Location{path_, std::nullopt}}; }

  Result<std::optional<ConfirmationDetails>> shouldConfirmExecute(const CancelToken& cancel) override {
    Planned planned = plan(cancel);
    if (planned.error) {
      // Nothing to confirm; execute reports this problem and writes nothing,
      // even if the file became readable since.
      confirmError_ = planned.error;
      return std::optional<ConfirmationDetails>{};
    }
    approved_ = TextFingerprint::of(planned.plan.oldText);
    EditConfirmation confirmation{"Confirm Write: " + context_.workspace->relative(path_),
                                  FileDiff{path_, std::move(planned.plan.oldText), std::move(planned.plan.newText)}};
    return std::optional<ConfirmationDetails>{std::move(confirmation)};
  }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled before writing " + path_);
    if (confirmError_) return ToolResult::failure(confirmError_->type, confirmError_->message);
    Planned planned = plan(cancel);
    if (planned.error) return ToolResult::failure(planned.error->type, planned.error->message);
    Plan& p = planned.plan;
    if (approved_ && *approved_ != TextFingerprint::of(p.oldText)) {
      return ToolResult::failure(ErrorType::execution_failed,
                                 path_ + " changed after this write was proposed and approved; nothing was written. "
                                         "Read the file again and retry with its current content in mind.");
    }
    if (Status written = context_.files->writeText(path_, p.toWrite(), cancel); !written) {
      return ToolResult::failure(storeErrorType(written.error()), "Failed to write " + path_ + ": " + written.error().message);
    }
    const size_t lines = countLines(p.newText);
    std::string llm = p.oldText ? "Wrote " + std::to_string(lines) + " lines to " + path_ + "."
                                : "Created new file " + path_ + " with " + std::to_string(lines) + " lines.";
    ToolResult result;
    result.llmContent.push_back(LlmPart{std::move(llm), {}, {}});
    addSyntaxWarning(result, path_, p.oldText, p.newText, cancel);
    result.returnDisplay = FileDiff{path_, std::move(p.oldText), std::move(p.newText)};
    return result;
  }

 private:
  Planned plan(const CancelToken& cancel) const {
    Planned out;
    auto current = context_.files->readText(path_, cancel);
    if (!current) {
      const Error& e = current.error();
      if (e.code != Errc::not_found) {
        out.error = ToolError{storeErrorType(e), "Cannot read " + path_ + ": " + e.message};
        return out;
      }
      // A new file is written exactly as given; the diff shows it normalized.
      out.plan.newText = normalize(content_);
      if (out.plan.newText != content_) out.plan.bytes = content_;
      return out;
    }
    std::string raw = std::move(current).value();
    if (static_cast<int64_t>(raw.size()) > context_.limits.maxFileBytes) {
      out.error = ToolError{ErrorType::file_too_large, path_ + " is too large to rewrite (" + std::to_string(raw.size()) +
                                                           " bytes; the limit is " +
                                                           std::to_string(context_.limits.maxFileBytes) + ")"};
      return out;
    }
    if (raw.empty()) {
      // An empty file has no format to keep: written as given, like a new one.
      out.plan.oldText.emplace();
      out.plan.newText = normalize(content_);
      if (out.plan.newText != content_) out.plan.bytes = content_;
      return out;
    }
    const TextFormat format = detectFormat(raw);
    out.plan.oldText = normalize(std::move(raw));
    out.plan.newText = conformFinalNewline(normalize(content_), format);
    if (needsRestore(format)) out.plan.bytes = restore(out.plan.newText, format);
    return out;
  }

  ToolContext context_;
  std::string path_;
  std::string content_;
  std::optional<TextFingerprint> approved_;  // the text the approved diff started from
  std::optional<ToolError> confirmError_;
};

class WriteFileTool final : public Tool {
 public:
  explicit WriteFileTool(ToolContext context)
      : Tool(ToolInfo{"write_file", "WriteFile",
                      "Writes content to a file in the workspace, replacing all of its current content, or creates "
                      "the file (and any missing parent directories) when it does not exist. An existing file keeps "
                      "its line endings (LF or CRLF), byte order mark and final newline. The person may review the "
                      "change as a diff before it is written. To change part of a file, prefer the replace tool.",
                      Kind::edit, kSchema, true, false}),
        context_(std::move(context)) {
    if (!context_.files) context_.files = makeDiskFileStore();
  }

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    std::string path = r.str("file_path");
    std::string content = r.str("content");
    if (!r.ok()) return {nullptr, ToolError{ErrorType::invalid_params, r.error().message}};
    auto resolved = resolveToolPath(*context_.workspace, path);
    if (resolved.error) return {nullptr, resolved.error};
    struct stat st {};
    if (::stat(resolved.path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      return {nullptr, ToolError{ErrorType::is_directory, resolved.path + " is a directory; give the path of a file"}};
    }
    return {std::make_unique<WriteFileInvocation>(context_, resolved.path, std::move(content)), std::nullopt};
  }

 private:
  ToolContext context_;
};

}  // namespace

std::unique_ptr<Tool> makeWriteFileTool(const ToolContext& context) { return std::make_unique<WriteFileTool>(context); }

}  // namespace lathe::tools
