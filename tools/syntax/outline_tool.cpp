// read_outline: the definitions (functions, classes, methods, types, ...) of a
// source file, or of each source file in a directory, with their line ranges,
// so the model can read a large file by parts. Parses with tree-sitter; files
// in languages it does not know are left out of a directory's outline.
// execute() runs on a worker thread; a directory walk uses the file walker's
// threads, then files are parsed one after another.
#include <sys/stat.h>

#include <algorithm>
#include <fstream>

#include "tools/files/edit_support.h"
#include "tools/files/file_content.h"
#include "tools/files/store_text.h"
#include "tools/search/file_walker.h"
#include "tools/syntax/definitions.h"
#include "tools/syntax/syntax_tools.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "A source file or a directory: absolute, or relative to the workspace root."},
    "recursive": {"type": "boolean", "description": "For a directory: also outline the files in its subdirectories. Defaults to false."},
    "max_depth": {"type": "integer", "minimum": 1, "description": "How deeply nested definitions are listed: 1 lists only top-level ones (classes, functions), 2 adds their methods, and so on. Defaults to no limit."}
  },
  "required": ["path"]
})";

constexpr size_t kMaxFiles = 200;                    // files outlined in one directory call
constexpr size_t kMaxEntries = 2000;                 // definitions listed in one call
constexpr int64_t kMaxDirFileBytes = 2 * 1024 * 1024;  // larger files in a directory are skipped
constexpr int64_t kMaxDirBytes = 16 * 1024 * 1024;   // parsed in all for one directory

constexpr const char* kLanguages = "bash, C, C++, Go, Java, JavaScript, JSON, Python, Rust, TSX and TypeScript";


struct OutlineParams {
  std::string path;  // absolute, canonical
  bool recursive = false;
  size_t maxDepth = 0;  // 0: no limit
};

// One file's outline, appended to `out`; the definitions listed, or an error.
struct FileOutline {
  size_t listed = 0;
  size_t left = 0;  // definitions not listed for the entry limit
  std::optional<ToolError> error;
};

class OutlineInvocation final : public ToolInvocation {
 public:
  OutlineInvocation(ToolContext context, OutlineParams params) : context_(std::move(context)), p_(std::move(params)) {}

  std::string description() const override {
    std::string text = context_.workspace->relative(p_.path);
    if (p_.recursive) text += " (recursive)";
    return text;
  }

  std::vector<Location> locations() const override { return {Location{p_.path, std::nullopt}}; }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    struct stat st {};
    if (::stat(p_.path.c_str(), &st) != 0) {
      // Not on disk: the session's store may still hold it (an editor buffer).
      if (auto text = readStoreText(context_, p_.path, cancel); text && syntax::languageForPath(p_.path)) {
        return outlineOneFile(static_cast<int64_t>(text->size()), cancel);
      }
      return ToolResult::failure(ErrorType::file_not_found, "File or directory not found: " + p_.path);
    }
    if (S_ISDIR(st.st_mode)) return outlineDirectory(cancel);
    if (!S_ISREG(st.st_mode)) {
      return ToolResult::failure(ErrorType::invalid_params,
                                 p_.path + " is " + describeFileType(st.st_mode) + ", not a regular file");
    }
    return outlineOneFile(st.st_size, cancel);
  }

 private:
  ToolResult outlineOneFile(int64_t size, const CancelToken& cancel) const {
    if (ignoredByGeminiIgnore(*context_.workspace, p_.path)) {
      return ToolResult::failure(ErrorType::invalid_params, geminiIgnoredMessage(p_.path));
    }
    auto language = syntax::languageForPath(p_.path);
    if (!language) {
      return ToolResult::failure(ErrorType::invalid_params, "read_outline knows " + std::string(kLanguages) +
                                                                " files; " + p_.path + " is none of these. Use "
                                                                "read_file to read it.");
    }
    if (size > context_.limits.maxFileBytes) {
      return ToolResult::failure(ErrorType::file_too_large, "File is too large to outline (" + std::to_string(size) +
                                                                " bytes; the limit is " +
                                                                std::to_string(context_.limits.maxFileBytes) + ")");
    }
    auto bytes = readStoreText(context_, p_.path, cancel);
    if (!bytes) {
      ToolError error = storeReadError(bytes.error(), p_.path);
      return ToolResult::failure(error.type, error.message);
    }
    if (static_cast<int64_t>(bytes->size()) > context_.limits.maxFileBytes) {
      return ToolResult::failure(ErrorType::file_too_large, "File is too large to outline (" +
                                                                std::to_string(bytes->size()) + " bytes)");
    }
    if (hasNulPrefix(*bytes)) return ToolResult::failure(ErrorType::binary_file, p_.path + " is a binary file");
    std::string llm;
    FileOutline outline = outlineFile(p_.path, *language, std::move(*bytes), kMaxEntries, cancel, llm);
    if (outline.error) return ToolResult::failure(outline.error->type, outline.error->message);
    if (outline.listed > 0) llm += kReadHint;
    const std::string display = "Outlined " + context_.workspace->relative(p_.path) + " (" +
                                std::to_string(outline.listed + outline.left) + " definitions)";
    return ToolResult::text(std::move(llm), display);
  }

  ToolResult outlineDirectory(const CancelToken& cancel) const {
    WalkOptions options;
    options.threads = context_.limits.walkThreads;
    options.root = workspaceRootOf(*context_.workspace, p_.path);
    options.start = p_.path;
    options.confine = context_.workspace.get();
    options.ignore.extraPatterns = {"node_modules/", "bower_components/", ".svn/", ".hg/"};
    if (!p_.recursive) options.maxDepth = 1;
    std::vector<std::vector<std::string>> perWorker(walkThreads(options));
    auto stats = walkFiles(options, cancel, [&](const WalkEntry& entry) {
      if (syntax::languageForPath(entry.rel)) perWorker[entry.worker].emplace_back(entry.path);
      return WalkControl::proceed;
    });
    if (!stats) return ToolResult::failure(ErrorType::execution_failed, stats.error().message);
    if (stats->cancelled || cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled");
    std::vector<std::string> files;
    for (auto& list : perWorker) files.insert(files.end(), list.begin(), list.end());
    std::sort(files.begin(), files.end());

    const std::string where = p_.path + (p_.recursive ? " and its subdirectories" : "");
    if (files.empty()) {
      return ToolResult::text("No source files (" + std::string(kLanguages) + ") in " + where + "." +
                                  (p_.recursive ? "" : " Set recursive to true to look in subdirectories."),
                              "No source files found");
    }
    std::string body;
    std::vector<std::string> skipped;
    size_t outlined = 0;
    size_t listed = 0;
    int64_t parsed = 0;
    std::string stoppedBy;  // why the listing ended early
    for (const auto& file : files) {
      if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled");
      if (outlined == kMaxFiles) {
        stoppedBy = "the limit is " + std::to_string(kMaxFiles) + " files";
        break;
      }
      if (listed >= kMaxEntries) {
        stoppedBy = "the limit is " + std::to_string(kMaxEntries) + " definitions";
        break;
      }
      struct stat st {};
      if (::stat(file.c_str(), &st) != 0) {
        skipped.push_back(file + " (unreadable)");
        continue;
      }
      if (st.st_size > kMaxDirFileBytes) {
        skipped.push_back(file + " (" + std::to_string(st.st_size) + " bytes; outline it on its own)");
        continue;
      }
      if (parsed + st.st_size > kMaxDirBytes) {
        stoppedBy = "the limit is " + std::to_string(kMaxDirBytes / (1024 * 1024)) + " MB of source";
        break;
      }
      auto bytes = readStoreText(context_, file, cancel);
      if (!bytes) {
        skipped.push_back(file + " (unreadable)");
        continue;
      }
      if (hasNulPrefix(*bytes)) {
        skipped.push_back(file + " (binary)");
        continue;
      }
      parsed += st.st_size;
      if (!body.empty()) body += '\n';
      FileOutline outline = outlineFile(file, *syntax::languageForPath(file), std::move(*bytes), kMaxEntries - listed,
                                        cancel, body);
      if (outline.error) {
        if (outline.error->type == ErrorType::cancelled) return ToolResult::failure(ErrorType::cancelled, "Cancelled");
        skipped.push_back(file + " (" + outline.error->message + ")");
        continue;
      }
      ++outlined;
      listed += outline.listed;
    }

    std::string llm = "Outline of " + std::to_string(outlined) + " source file" + (outlined == 1 ? "" : "s") +
                      " in " + where + ":\n\n" + body;
    const size_t notOutlined = files.size() - outlined - skipped.size();
    if (!stoppedBy.empty() && notOutlined > 0) {
      llm += "\n[" + std::to_string(notOutlined) + " more source files are not outlined (" + stoppedBy +
             "); give a subdirectory or a file as path to see them.]\n";
    }
    if (!skipped.empty()) {
      llm += "\nSkipped:\n";
      for (const auto& s : skipped) llm += "- " + s + "\n";
    }
    if (listed > 0) llm += kReadHint;
    std::string display = "Outlined " + std::to_string(outlined) + " file" + (outlined == 1 ? "" : "s") + " in " +
                          context_.workspace->relative(p_.path);
    return ToolResult::text(std::move(llm), std::move(display));
  }

  // "path (language, N lines):" and the definitions, indented by nesting.
  FileOutline outlineFile(const std::string& path, syntax::Language language, std::string text, size_t maxEntries,
                          const CancelToken& cancel, std::string& out) const {
    FileOutline result;
    const size_t lines = countLines(text);
    auto tree = syntax::SyntaxTree::parse(language, std::move(text), cancel);
    if (!tree) {
      result.error = ToolError{tree.error().code == Errc::cancelled ? ErrorType::cancelled : ErrorType::execution_failed,
                               tree.error().message};
      return result;
    }
    const auto definitions = syntax::findDefinitions(*tree, p_.maxDepth);
    out += path + " (" + syntax::toString(language) + ", " + std::to_string(lines) + (lines == 1 ? " line)" : " lines)");
    if (definitions.empty()) {
      out += ": no definitions found.\n";
      return result;
    }
    out += ":\n";
    for (const auto& d : definitions) {
      if (result.listed == maxEntries) {
        ++result.left;
        continue;
      }
      out.append(2 * (d.depth + 1), ' ');
      out += d.kind + " " + d.name + " (";
      out += d.startLine == d.endLine ? "line " + std::to_string(d.startLine)
                                      : "lines " + std::to_string(d.startLine) + "-" + std::to_string(d.endLine);
      out += ")\n";
      ++result.listed;
    }
    if (result.left > 0) {
      out += "  [" + std::to_string(result.left) + " more definitions are not listed (the limit is " +
             std::to_string(kMaxEntries) + " in all); use max_depth 1 or a narrower path.]\n";
    }
    return result;
  }

  static constexpr const char* kReadHint = "\nRead a definition with read_file, giving its lines as start_line and end_line.";

  ToolContext context_;
  OutlineParams p_;
};

class OutlineTool final : public Tool {
 public:
  explicit OutlineTool(ToolContext context)
      : Tool(ToolInfo{
            .name = "read_outline",
            .displayName = "ReadOutline",
            .description = "Lists the definitions in a source file (functions, classes, methods, structs, interfaces, "
                           "enums, types, namespaces; top-level keys of a JSON file) with their line ranges, nested as "
                           "in the source; or, for a directory, the outline of each source file in it. Use it to find "
                           "your way around a large file or a codebase, then read just the lines you need with "
                           "read_file. Knows " +
                           std::string(kLanguages) + " files.",
            .kind = Kind::read,
            .parametersSchema = kSchema}),
        context_(std::move(context)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    OutlineParams p;
    std::string path = r.str("path");
    p.recursive = r.optBool("recursive").value_or(false);
    auto maxDepth = r.optInt64("max_depth");
    if (!r.ok()) return invalidParams(r.error().message);
    if (maxDepth && *maxDepth < 1) {
      return invalidParams("params.max_depth: must be at least 1");
    }
    p.maxDepth = maxDepth ? static_cast<size_t>(*maxDepth) : 0;
    auto resolved = resolveToolPath(*context_.workspace, path);
    if (resolved.error) return {nullptr, resolved.error};
    p.path = std::move(resolved.path);
    return {std::make_unique<OutlineInvocation>(context_, std::move(p)), std::nullopt};
  }

 private:
  ToolContext context_;
};

}  // namespace

std::unique_ptr<Tool> makeOutlineTool(const ToolContext& context) { return std::make_unique<OutlineTool>(context); }

void registerSyntaxTools(ToolRegistry& registry, const ToolContext& context) {
  (void)registry.add(makeOutlineTool(context));
}

}  // namespace lathe::tools
