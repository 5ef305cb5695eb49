// glob: the files below a workspace directory whose paths match a glob, the
// ones changed in the last 24 hours first (newest first), then the rest by
// path. execute() runs on a worker thread and walks with the file walker's
// threads; only matching files are stat'ed (for their modification time).
// It lists the disk, not the session's FileStore: the store reads one named
// file at a time and cannot enumerate (see grep_search.cpp).
#include <sys/stat.h>

#include <algorithm>
#include <chrono>

#include "tools/search/file_walker.h"
#include "tools/search/glob_match.h"
#include "tools/search/search_tools.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "The glob to match file paths against, relative to dir_path: e.g. '**/*.py', 'src/**/*.{ts,tsx}', 'docs/*.md'. '*' stays within one folder, '**' crosses folders."},
    "dir_path": {"type": "string", "description": "Directory to search in: absolute, or relative to the workspace root. Defaults to every workspace root."},
    "case_sensitive": {"type": "boolean", "description": "Match case exactly. Defaults to false."},
    "respect_git_ignore": {"type": "boolean", "description": "Leave out files matched by .gitignore. Defaults to true."},
    "respect_gemini_ignore": {"type": "boolean", "description": "Leave out files matched by .geminiignore. Defaults to true."}
  },
  "required": ["pattern"]
})";

constexpr int64_t kRecentNanos = int64_t{24} * 3600 * 1000000000;

struct Found {
  std::string path;
  int64_t mtime = 0;  // nanoseconds since the epoch
};

struct GlobParams {
  std::string pattern;
  std::vector<std::string> dirs;  // absolute, canonical
  bool dirGiven = false;
  bool caseSensitive = false;
  bool respectGit = true;
  bool respectGemini = true;
};

class GlobInvocation final : public ToolInvocation {
 public:
  GlobInvocation(ToolContext context, GlobParams params) : context_(std::move(context)), params_(std::move(params)) {}

  std::string description() const override {
    std::string text = "'" + params_.pattern + "'";
    if (params_.dirGiven) text += " within " + context_.workspace->relative(params_.dirs.front());
    return text;
  }

  std::vector<Location> locations() const override {
    if (!params_.dirGiven) return {};
    return {Location{params_.dirs.front(), std::nullopt}};
  }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    std::vector<Found> found;
    size_t ignored = 0;
    for (const auto& dir : params_.dirs) {
      struct stat st {};
      if (::stat(dir.c_str(), &st) != 0) return ToolResult::failure(ErrorType::file_not_found, "Search path does not exist: " + dir);
      if (!S_ISDIR(st.st_mode)) return ToolResult::failure(ErrorType::not_a_directory, "Search path is not a directory: " + dir);
      auto result = search(dir, cancel, found, ignored);
      if (result) return *result;
    }
    std::string where = params_.dirs.size() == 1 ? "within " + params_.dirs.front()
                                                 : "across " + std::to_string(params_.dirs.size()) + " workspace directories";
    if (found.empty()) {
      std::string llm = "No files found matching pattern \"" + params_.pattern + "\" " + where + ".";
      if (ignored > 0 && (params_.respectGit || params_.respectGemini)) {
        llm += " Some paths were left out by .gitignore/.geminiignore or the default excludes; set respect_git_ignore "
               "or respect_gemini_ignore to false to include ignored files.";
      }
      return ToolResult::text(std::move(llm), "No files found");
    }
    sortFound(found);
    const size_t total = found.size();
    const size_t shown = std::min(total, static_cast<size_t>(std::max<int64_t>(1, context_.limits.globMaxResults)));
    std::string llm = "Found " + std::to_string(total) + " file(s) matching \"" + params_.pattern + "\" " + where +
                      ", sorted by modification time (newest first)";
    if (shown < total) llm += "; showing the first " + std::to_string(shown);
    llm += ":\n";
    for (size_t i = 0; i < shown; ++i) llm += found[i].path + "\n";
    llm.pop_back();
    if (shown < total) {
      llm += "\n[" + std::to_string(total - shown) + " more matching files are not listed (the limit is " +
             std::to_string(shown) + "). Narrow the pattern or dir_path to see them.]";
    }
    std::string display = "Found " + std::to_string(total) + " matching file(s)";
    if (shown < total) display += " (listed " + std::to_string(shown) + ")";
    return ToolResult::text(std::move(llm), std::move(display));
  }

 private:
  // Walks one directory, appending matches; a result only for a failure.
  std::optional<ToolResult> search(const std::string& dir, const CancelToken& cancel, std::vector<Found>& found,
                                   size_t& ignored) const {
    std::string pattern = params_.pattern;
    while (pattern.size() > 2 && pattern.compare(0, 2, "./") == 0) pattern.erase(0, 2);
    if (!pattern.empty() && pattern.front() == '/') {
      // An absolute pattern is taken relative to the directory it lies in.
      if (pattern.compare(0, dir.size() + 1, dir + "/") != 0) return std::nullopt;
      pattern.erase(0, dir.size() + 1);
    }
    // A pattern naming an existing file is that file, brackets and all.
    struct stat st {};
    if (::stat((dir + "/" + pattern).c_str(), &st) == 0) pattern = escapeGlob(pattern);
    auto glob = GlobPattern::compile(pattern, params_.caseSensitive ? GlobCase::sensitive : GlobCase::insensitive);
    if (!glob) return ToolResult::failure(ErrorType::invalid_params, "params.pattern: " + glob.error().message);

    WalkOptions options;
    options.threads = context_.limits.walkThreads;
    options.root = workspaceRootOf(*context_.workspace, dir);
    options.start = dir;
    options.confine = context_.workspace.get();
    options.ignore.respectGitIgnore = params_.respectGit;
    options.ignore.respectGeminiIgnore = params_.respectGemini;
    options.ignore.extraPatterns = {"node_modules/", "bower_components/", ".svn/", ".hg/"};
    options.maxDepth = glob->maxSegments();
    options.descend = [&](std::string_view relDir) { return glob->couldMatchInside(relDir); };
    std::vector<std::vector<Found>> perWorker(walkThreads(options));
    auto stats = walkFiles(options, cancel, [&](const WalkEntry& entry) {
      if (!glob->matches(entry.rel)) return WalkControl::proceed;
      struct stat fileStat {};
      int64_t mtime = 0;
      if (::stat(entry.path.data(), &fileStat) == 0) {
        mtime = int64_t{fileStat.st_mtim.tv_sec} * 1000000000 + fileStat.st_mtim.tv_nsec;
      }
      perWorker[entry.worker].push_back(Found{std::string(entry.path), mtime});
      return WalkControl::proceed;
    });
    if (!stats) return ToolResult::failure(ErrorType::execution_failed, stats.error().message);
    if (stats->cancelled || cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled");
    ignored += stats->ignored;
    for (auto& list : perWorker) {
      found.insert(found.end(), std::make_move_iterator(list.begin()), std::make_move_iterator(list.end()));
    }
    return std::nullopt;
  }

  static void sortFound(std::vector<Found>& found) {
    const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    std::sort(found.begin(), found.end(), [now](const Found& a, const Found& b) {
      bool aRecent = now - a.mtime < kRecentNanos;
      bool bRecent = now - b.mtime < kRecentNanos;
      if (aRecent != bRecent) return aRecent;
      if (aRecent && a.mtime != b.mtime) return a.mtime > b.mtime;
      return a.path < b.path;
    });
  }

  ToolContext context_;
  GlobParams params_;
};

class GlobTool final : public Tool {
 public:
  explicit GlobTool(ToolContext context)
      : Tool(ToolInfo{
            .name = "glob",
            .displayName = "FindFiles",
            .description =
                "Finds files whose paths match a glob (e.g. `src/**/*.ts`, `*.{md,txt}`) below a directory of "
                "the workspace and returns their absolute paths: files changed in the last 24 hours first "
                "(newest first), then the rest sorted by path. Case-insensitive unless case_sensitive is true; "
                "respects .gitignore and .geminiignore unless told otherwise. For finding code by content, "
                "use grep_search.",
            .kind = Kind::search,
            .parametersSchema = kSchema}),
        context_(std::move(context)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    GlobParams p;
    p.pattern = r.str("pattern");
    auto dir = r.optStr("dir_path");
    p.caseSensitive = r.optBool("case_sensitive").value_or(false);
    p.respectGit = r.optBool("respect_git_ignore").value_or(true);
    p.respectGemini = r.optBool("respect_gemini_ignore").value_or(true);
    if (!r.ok()) return invalidParams(r.error().message);
    if (p.pattern.find_first_not_of(" \t") == std::string::npos)
      return invalidParams("params.pattern: must not be empty");
    std::string_view rest = p.pattern;
    while (!rest.empty()) {
      size_t slash = rest.find('/');
      if (rest.substr(0, slash) == "..") {
        return invalidParams(
            "params.pattern: \"..\" segments are not supported; set dir_path to search another directory");
      }
      if (slash == std::string_view::npos) break;
      rest.remove_prefix(slash + 1);
    }
    // Compiling now reports a bad pattern before anything runs.
    if (auto glob = GlobPattern::compile(p.pattern); !glob)
      return invalidParams("params.pattern: " + glob.error().message);
    if (dir && !dir->empty()) {
      auto resolved = resolveToolPath(*context_.workspace, *dir);
      if (resolved.error) return {nullptr, resolved.error};
      p.dirs.push_back(resolved.path);
      p.dirGiven = true;
    } else {
      p.dirs = context_.workspace->roots();
    }
    return {std::make_unique<GlobInvocation>(context_, std::move(p)), std::nullopt};
  }

 private:
  ToolContext context_;
};

}  // namespace

std::unique_ptr<Tool> makeGlobTool(const ToolContext& context) { return std::make_unique<GlobTool>(context); }

}  // namespace lathe::tools
