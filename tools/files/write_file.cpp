// write_file: replaces a file's whole content, or creates it. Reads and writes
// only through ToolContext::files (the disk, or the editor's buffers). An
// existing file keeps its BOM, line endings and final newline; a new file is
// written exactly as the model gave it. Confirmation and writing: see
// edit_invocation.h. Runs on a worker thread.
#include <sys/stat.h>

#include "tools/files/edit_invocation.h"
#include "tools/files/file_tools.h"
#include "tools/files/omission_placeholders.h"
#include "tools/files/text_format.h"

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

class WriteFileInvocation final : public EditInvocation {
 public:
  WriteFileInvocation(EditTarget target, std::string content)
      : EditInvocation(std::move(target.context), std::move(target.path), std::move(target.plan)),
        content_(std::move(content)) {}

  std::string description() const override { return "Writing to " + context().workspace->relative(path()); }

 private:
  std::string confirmTitle() const override { return "Confirm Write: " + context().workspace->relative(path()); }

  std::string summary(const EditPlan& p) const override {
    const size_t lines = countLines(p.newText);
    return p.oldText ? "Wrote " + std::to_string(lines) + " lines to " + path() + "."
                     : "Created new file " + path() + " with " + std::to_string(lines) + " lines.";
  }

  PlannedEdit plan(const CancelToken& cancel) const override {
    PlannedEdit out;
    auto current = context().files->readText(path(), cancel);
    if (!current) {
      const Error& e = current.error();
      if (e.code != Errc::not_found) {
        out.error = ToolError{storeErrorType(e), "Cannot read " + path() + ": " + e.message};
        return out;
      }
      // A new file is written exactly as given; the diff shows it normalized.
      out.plan.newText = normalize(content_);
      if (out.plan.newText != content_) out.plan.bytes = content_;
      return out;
    }
    std::string raw = std::move(current).value();
    if (static_cast<int64_t>(raw.size()) > context().limits.maxFileBytes) {
      out.error = ToolError{ErrorType::file_too_large, path() + " is too large to rewrite (" + std::to_string(raw.size()) +
                                                           " bytes; the limit is " +
                                                           std::to_string(context().limits.maxFileBytes) + ")"};
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

  std::string content_;
};

class WriteFileTool final : public Tool {
 public:
  explicit WriteFileTool(ToolContext context)
      : Tool(ToolInfo{
            .name = "write_file",
            .displayName = "WriteFile",
            .description =
                "Writes content to a file in the workspace, replacing all of its current content, or creates "
                "the file (and any missing parent directories) when it does not exist. An existing file keeps "
                "its line endings (LF or CRLF), byte order mark and final newline. The person may review the "
                "change as a diff before it is written. To change part of a file, prefer the replace tool. Always "
                "write the complete content: never placeholders such as \"// ... existing code ...\" or "
                "\"# rest of the code\" (they are refused).",
            .kind = Kind::edit,
            .parametersSchema = kSchema}),
        context_(std::move(context)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    std::string path = r.str("file_path");
    std::string content = r.str("content");
    if (!r.ok()) return invalidParams(r.error().message);
    auto resolved = editTargetOf(context_, path);
    if (resolved.error) return {nullptr, resolved.error};
    struct stat st {};
    if (::stat(resolved.path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      return buildFailure(ErrorType::is_directory, resolved.path + " is a directory; give the path of a file");
    }
    if (newOmissionPlaceholder(content, {})) {
      // Allowed only when the file already holds the same line (read through the store, like the edit itself).
      const auto& files = resolved.context.files;
      auto current = files ? files->readText(resolved.path, CancelToken()) : Result<std::string>(std::string());
      if (auto line = newOmissionPlaceholder(content, current ? *current : std::string())) {
        return invalidParams(omissionMessage(*line));
      }
    }
    return {std::make_unique<WriteFileInvocation>(std::move(resolved), std::move(content)), std::nullopt};
  }

 private:
  ToolContext context_;
};

}  // namespace

std::unique_ptr<Tool> makeWriteFileTool(const ToolContext& context) { return std::make_unique<WriteFileTool>(context); }

}  // namespace lathe::tools
