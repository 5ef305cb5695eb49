// list_directory: the entries directly inside a directory, folders first,
// files with their sizes; .git hidden, .gitignore and .geminiignore honoured
// (file_filtering_options). Runs on a worker thread.
#include <fnmatch.h>

#include <algorithm>
#include <filesystem>

#include "tools/files/file_tools.h"
#include "tools/search/file_walker.h"
#include "tools/search/ignore_rules.h"

namespace lathe::tools {
namespace {
namespace fs = std::filesystem;

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "dir_path": {"type": "string", "description": "Directory to list: absolute, or relative to the workspace root."},
    "ignore": {"type": "array", "items": {"type": "string"}, "description": "Glob patterns of entry names to leave out, e.g. [\"*.log\", \"node_modules\"]."},
    "file_filtering_options": {"type": "object", "description": "Which ignore files to honour.", "properties": {
      "respect_git_ignore": {"type": "boolean", "description": "Leave out what .gitignore ignores. Defaults to true."},
      "respect_gemini_ignore": {"type": "boolean", "description": "Leave out what .geminiignore ignores. Defaults to true."}
    }}
  },
  "required": ["dir_path"]
})";

struct Entry {
  std::string name;
  bool isDir = false;
  uintmax_t size = 0;
};

class ListDirectoryInvocation final : public ToolInvocation {
 public:
  ListDirectoryInvocation(ToolContext context, std::string path, std::vector<std::string> ignore, IgnoreOptions filtering)
      : context_(std::move(context)), path_(std::move(path)), ignore_(std::move(ignore)), filtering_(std::move(filtering)) {}

  std::string description() const override { return context_.workspace->relative(path_); }
  std::vector<Location> locations() const override { return {Location{path_, std::nullopt}}; }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    std::error_code ec;
    auto status = fs::status(path_, ec);
    if (ec || !fs::exists(status)) return ToolResult::failure(ErrorType::file_not_found, "Directory not found: " + path_);
    if (!fs::is_directory(status)) {
      return ToolResult::failure(ErrorType::not_a_directory, path_ + " is not a directory");
    }
    std::vector<Entry> entries;
    size_t ignored = 0;
    fs::directory_iterator it(path_, fs::directory_options::skip_permission_denied, ec);
    if (ec) return ToolResult::failure(ErrorType::permission_denied, "Cannot list " + path_ + ": " + ec.message());
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) break;
      if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled");
      std::string name = it->path().filename().string();
      if (name == ".git") continue;  // never listed, like every tool
      std::error_code typeEc;
      Entry entry{name, it->is_directory(typeEc)};
      if (isIgnored(name) || ignoredByFiles(name, entry.isDir)) {
        ++ignored;
        continue;
      }
      if (!entry.isDir) entry.size = it->file_size(typeEc);
      entries.push_back(std::move(entry));
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
      if (a.isDir != b.isDir) return a.isDir;
      return a.name < b.name;
    });
    std::string llm = "Directory listing for " + path_ + ":\n";
    if (entries.empty()) llm = "Directory " + path_ + " is empty.\n";
    for (const auto& entry : entries) {
      llm += entry.isDir ? "[DIR] " + entry.name + "\n" : entry.name + " (" + std::to_string(entry.size) + " bytes)\n";
    }
    if (ignored > 0) llm += "\n(" + std::to_string(ignored) + " ignored)\n";
    std::string display = "Listed " + std::to_string(entries.size()) + " entries in " + context_.workspace->relative(path_);
    return ToolResult::text(std::move(llm), std::move(display));
  }

 private:
  // .gitignore / .geminiignore of the workspace root holding the directory.
  bool ignoredByFiles(const std::string& name, bool isDir) const {
    if (!filtering_.respectGitIgnore && !filtering_.respectGeminiIgnore) return false;
    // A readable folder outside the workspace (a skill's) has no ignore files of the workspace's.
    if (!context_.workspace->contains(path_)) return false;
    std::string root = workspaceRootOf(*context_.workspace, path_);
    std::string rel = path_ == root ? name : path_.substr(root.size() + 1) + "/" + name;
    return isPathIgnored(root, rel, isDir, filtering_);
  }

  bool isIgnored(const std::string& name) const {
    return std::any_of(ignore_.begin(), ignore_.end(),
                       [&](const std::string& pattern) { return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0; });
  }

  ToolContext context_;
  std::string path_;
  std::vector<std::string> ignore_;
  IgnoreOptions filtering_;
};

class ListDirectoryTool final : public Tool {
 public:
  explicit ListDirectoryTool(ToolContext context)
      : Tool(ToolInfo{.name = "list_directory",
                      .displayName = "ReadFolder",
                      .description =
                          "Lists the files and folders directly inside a directory of the workspace, folders first "
                          "(marked [DIR]), then files with their sizes, each group sorted by name. Entries whose names "
                          "match a glob in `ignore`, or that .gitignore or .geminiignore ignore (see "
                          "file_filtering_options), are left out and counted; .git is never listed.",
                      .kind = Kind::search,
                      .parametersSchema = kSchema}),
        context_(std::move(context)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    std::string path = r.str("dir_path");
    auto ignore = r.optStrings("ignore").value_or(std::vector<std::string>{});
    IgnoreOptions filtering;
    if (auto options = r.optObject("file_filtering_options")) {
      filtering.respectGitIgnore = options->optBool("respect_git_ignore").value_or(true);
      filtering.respectGeminiIgnore = options->optBool("respect_gemini_ignore").value_or(true);
    }
    if (!r.ok()) return invalidParams(r.error().message);
    auto resolved = resolveReadPath(context_, path);
    if (resolved.error) return {nullptr, resolved.error};
    return {std::make_unique<ListDirectoryInvocation>(context_, resolved.path, std::move(ignore), std::move(filtering)), std::nullopt};
  }

 private:
  ToolContext context_;
};

}  // namespace

std::unique_ptr<Tool> makeListDirectoryTool(const ToolContext& context) {
  return std::make_unique<ListDirectoryTool>(context);
}

}  // namespace lathe::tools
