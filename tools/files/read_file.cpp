// read_file: a window of lines from a text file, or an image/PDF as inline data.
// Runs on a worker thread.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "protocol/base/base64.h"
#include "tools/files/file_content.h"
#include "tools/files/file_tools.h"
#include "tools/files/guarded_reads.h"
#include "tools/files/store_text.h"
#include "tools/search/file_walker.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "Path of the file to read: absolute, or relative to the workspace root."},
    "start_line": {"type": "integer", "minimum": 1, "description": "First line to read, 1-based. Defaults to 1."},
    "end_line": {"type": "integer", "minimum": 1, "description": "Last line to read, 1-based and inclusive. Defaults to 2000 lines after start_line."},
    "offset": {"type": "integer", "minimum": 0, "description": "Older form of start_line: the 0-based line to start at."},
    "limit": {"type": "integer", "minimum": 1, "description": "Older form of end_line: how many lines to read."}
  },
  "required": ["file_path"]
})";

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = nl + 1;
  }
  return lines;
}

class ReadFileInvocation final : public ToolInvocation {
 public:
  ReadFileInvocation(ToolContext context, std::string path, int64_t start, std::optional<int64_t> end)
      : context_(std::move(context)), path_(std::move(path)), start_(start), end_(end) {}

  std::string description() const override {
    std::string text = context_.workspace->relative(path_);
    if (start_ > 1 || end_) text += " (lines " + std::to_string(start_) + "-" + (end_ ? std::to_string(*end_) : "") + ")";
    return text;
  }

  std::vector<Location> locations() const override { return {Location{path_, start_}}; }

  // A file git ignores, or one shaped like secrets, is read only when the person says so.
  Result<std::optional<ConfirmationDetails>> shouldConfirmExecute(const CancelToken&) override {
    if (::access(path_.c_str(), F_OK) != 0) return std::optional<ConfirmationDetails>{};
    if (auto ask = guardedReads(*context_.workspace, {path_})) return std::optional<ConfirmationDetails>{std::move(*ask)};
    return std::optional<ConfirmationDetails>{};
  }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    if (ignoredByGeminiIgnore(*context_.workspace, path_)) {
      return ToolResult::failure(ErrorType::invalid_params, geminiIgnoredMessage(path_));
    }
    // The disk says what kind of file this is (directory, image, binary);
    // the text itself comes from the session's store, like the edit tools'.
    struct stat st {};
    const bool onDisk = ::stat(path_.c_str(), &st) == 0;
    if (onDisk) {
      if (auto refused = checkDiskFile(st)) return *refused;
      if (std::string mime = inlineMimeType(path_); !mime.empty()) return readInline(mime, cancel);
      FileReader reader;
      auto head = reader.read(path_.c_str(), kSniffBytes);
      if (!head) return ToolResult::failure(ErrorType::permission_denied, "Cannot open " + path_ + " for reading");
      if (looksBinary(*head)) return binaryFailure();
    }
    auto text = readStoreText(context_, path_, cancel);
    if (!text) {
      ToolError error = storeReadError(text.error(), path_);
      return ToolResult::failure(error.type, error.message);
    }
    if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled");
    if (static_cast<int64_t>(text->size()) > context_.limits.maxFileBytes) return tooLarge(text->size());
    if (!onDisk && looksBinary(*text)) return binaryFailure();
    return readWindow(*text);
  }

 private:
  static constexpr size_t kSniffBytes = 8192;

  std::optional<ToolResult> checkDiskFile(const struct stat& st) const {
    if (S_ISDIR(st.st_mode)) {
      return ToolResult::failure(ErrorType::is_directory,
                                 path_ + " is a directory; use list_directory to see what it holds");
    }
    if (!S_ISREG(st.st_mode)) {
      return ToolResult::failure(ErrorType::invalid_params, path_ + " is " + describeFileType(st.st_mode) +
                                                                ", not a regular file: read_file reads only files");
    }
    if (st.st_size > context_.limits.maxFileBytes) return tooLarge(static_cast<uint64_t>(st.st_size));
    return std::nullopt;
  }

  ToolResult tooLarge(uint64_t size) const {
    return ToolResult::failure(ErrorType::file_too_large, "File is too large to read (" + std::to_string(size) +
                                                              " bytes; the limit is " +
                                                              std::to_string(context_.limits.maxFileBytes) + ")");
  }

  ToolResult binaryFailure() const {
    return ToolResult::failure(ErrorType::binary_file, "Cannot show the content of binary file " + path_);
  }

  // Images and PDFs: the disk's bytes as inline data.
  ToolResult readInline(const std::string& mime, const CancelToken& cancel) const {
    std::ifstream in(path_, std::ios::binary);
    if (!in) return ToolResult::failure(ErrorType::permission_denied, "Cannot open " + path_ + " for reading");
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled");
    ToolResult result;
    result.llmContent.push_back(LlmPart{{}, mime, base64Encode(bytes)});
    result.returnDisplay = "Read " + mime + " file " + context_.workspace->relative(path_);
    return result;
  }

  ToolResult readWindow(std::string_view text) const {
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    auto lines = splitLines(text);
    const int64_t total = static_cast<int64_t>(lines.size());
    if (total == 0) return ToolResult::text("", "Read empty file " + context_.workspace->relative(path_));
    if (start_ > total) {
      return ToolResult::failure(ErrorType::invalid_params, "start_line " + std::to_string(start_) +
                                                                " is past the end of the file (" +
                                                                std::to_string(total) + " lines)");
    }
    int64_t last = std::min(total, end_.value_or(start_ + context_.limits.readDefaultLines - 1));
    std::string body;
    bool cutLines = false;
    for (int64_t i = start_; i <= last; ++i) {
      std::string_view line = lines[i - 1];
      if (static_cast<int64_t>(line.size()) > context_.limits.maxLineChars) {
        body.append(line.substr(0, context_.limits.maxLineChars));
        body += "... [line cut]";
        cutLines = true;
      } else {
        body.append(line);
      }
      // The text exactly: no newline the file does not have after its last line.
      if (i < total || text.back() == '\n') body += '\n';
    }
    bool partial = start_ > 1 || last < total;
    std::string llm;
    if (partial || cutLines) {
      llm = "[Showing lines " + std::to_string(start_) + "-" + std::to_string(last) + " of " + std::to_string(total) + ".";
      if (last < total) {
        llm += " More lines follow: call read_file again with start_line " + std::to_string(last + 1) + " to read on.";
      }
      if (cutLines) {
        llm += " Lines longer than " + std::to_string(context_.limits.maxLineChars) + " characters were cut.";
      }
      llm += "]\n\n";
    }
    llm += body;
    std::string display = "Read lines " + std::to_string(start_) + "-" + std::to_string(last) + " of " +
                          std::to_string(total) + " from " + context_.workspace->relative(path_);
    return ToolResult::text(std::move(llm), std::move(display));
  }

  ToolContext context_;
  std::string path_;
  int64_t start_;
  std::optional<int64_t> end_;
};

class ReadFileTool final : public Tool {
 public:
  explicit ReadFileTool(ToolContext context)
      : Tool(ToolInfo{.name = "read_file",
                      .displayName = "ReadFile",
                      .description =
                          "Reads a file from the workspace. Text files come back as lines (by default the first 2000; "
                          "use start_line and end_line to read a window of a large file, 1-based and inclusive). "
                          "Images (PNG, JPEG, GIF, WEBP, BMP) and PDF files come back as inline data. Binary files "
                          "are refused.",
                      .kind = Kind::read,
                      .parametersSchema = kSchema}),
        context_(std::move(context)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    std::string path = r.str("file_path");
    auto start = r.optInt64("start_line");
    auto end = r.optInt64("end_line");
    auto offset = r.optInt64("offset");
    auto limit = r.optInt64("limit");
    if (!start && offset) start = *offset + 1;
    if (!end && limit) end = start.value_or(1) + *limit - 1;
    if (end && *end < start.value_or(1)) {
      return invalidParams("params.end_line: must not be before start_line");
    }
    auto resolved = resolveReadPath(context_, path);
    if (resolved.error) return {nullptr, resolved.error};
    return {std::make_unique<ReadFileInvocation>(context_, resolved.path, start.value_or(1), end), std::nullopt};
  }

 private:
  ToolContext context_;
};

}  // namespace

std::unique_ptr<Tool> makeReadFileTool(const ToolContext& context) { return std::make_unique<ReadFileTool>(context); }

}  // namespace lathe::tools
