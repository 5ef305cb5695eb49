// read_many_files: the text of every file named by paths or globs, joined
// with `--- path ---` separators; images and PDFs as inline data when named
// explicitly; binaries and ignored files listed as skipped with the reason.
// execute() runs on a worker thread (globs walk with the file walker's threads).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <set>

#include "protocol/base/base64.h"
#include "protocol/base/text.h"
#include "tools/files/file_content.h"
#include "tools/files/file_tools.h"
#include "tools/files/guarded_reads.h"
#include "tools/files/secret_files.h"
#include "tools/files/store_text.h"
#include "tools/search/file_walker.h"
#include "tools/search/glob_match.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "include": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}, "description": "Paths or globs of the files to read, relative to the workspace root: e.g. [\"src/**/*.ts\"], [\"README.md\", \"docs/\"]. A directory means the files inside it."},
    "exclude": {"type": "array", "items": {"type": "string", "minLength": 1}, "description": "Globs of files or folders to leave out (gitignore syntax), added to the default excludes: e.g. [\"**/*.log\", \"temp/\"]."},
    "recursive": {"type": "boolean", "description": "Whether a directory in include means its whole subtree (true, the default) or only the files directly inside it."},
    "useDefaultExcludes": {"type": "boolean", "description": "Leave out node_modules, .git, build outputs, binaries and the like. Defaults to true."},
    "file_filtering_options": {"type": "object", "properties": {
      "respect_git_ignore": {"type": "boolean"},
      "respect_gemini_ignore": {"type": "boolean"}
    }}
  },
  "required": ["include"]
})";

std::vector<std::string> defaultExcludes() {
  std::vector<std::string> out = {"node_modules/", "bower_components/", ".svn/", ".hg/", ".vscode/", ".idea/",
                                  "dist/", "build/", "coverage/", "__pycache__/", "*.pyc", "*.pyo", ".DS_Store", ".env"};
  for (const char* ext : {"7z", "bin", "bz2", "class", "db", "dll", "dmg", "doc", "docx", "dylib", "exe", "gz", "img",
                          "iso", "jar", "lz4", "mdb", "odp", "ods", "odt", "ppt", "pptx", "rar", "so", "sqlite", "tar",
                          "war", "xls", "xlsx", "xz", "zip", "zst"}) {
    out.push_back(std::string("*.") + ext);
  }
  return out;
}

struct ReadManyParams {
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  bool recursive = true;
  bool useDefaultExcludes = true;
  bool respectGit = true;
  bool respectGemini = true;
};

struct Skipped {
  std::string path;
  std::string reason;
};

std::string normalise(std::string pattern) {
  std::replace(pattern.begin(), pattern.end(), '\\', '/');
  while (pattern.size() > 2 && pattern.compare(0, 2, "./") == 0) pattern.erase(0, 2);
  while (pattern.size() > 1 && pattern.back() == '/') pattern.pop_back();
  return pattern;
}

bool hasGlobSyntax(std::string_view s) { return s.find_first_of("*?[{") != std::string_view::npos; }

class ReadManyInvocation final : public ToolInvocation {
 public:
  ReadManyInvocation(ToolContext context, ReadManyParams params)
      : context_(std::move(context)), params_(std::move(params)) {}

  std::string description() const override {
    std::string text = "Will read files matching ";
    for (size_t i = 0; i < params_.include.size(); ++i) text += (i ? ", `" : "`") + params_.include[i] + "`";
    if (!params_.exclude.empty()) {
      text += ", excluding ";
      for (size_t i = 0; i < params_.exclude.size(); ++i) text += (i ? ", `" : "`") + params_.exclude[i] + "`";
    }
    if (params_.useDefaultExcludes) text += " (default excludes apply)";
    return text;
  }

  // Known once the call ran: the folders of the files it read (so context
  // files there can join the result just in time).
  std::vector<Location> locations() const override {
    std::vector<Location> out;
    for (const auto& dir : readDirs_) out.push_back(Location{dir, std::nullopt});
    return out;
  }

  // Files git ignores are what the person keeps from the model: reading
  // them asks first, naming what was asked for.
  Result<std::optional<ConfirmationDetails>> shouldConfirmExecute(const CancelToken&) override {
    if (params_.respectGit) return std::optional<ConfirmationDetails>{};
    ReadConfirmation ask;
    for (const auto& pattern : params_.include) {
      ask.files.push_back({pattern, "files .gitignore leaves out may be read (respect_git_ignore is false)"});
    }
    return std::optional<ConfirmationDetails>{std::move(ask)};
  }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    std::set<std::string> files;
    std::vector<Skipped> skipped;
    for (const auto& root : context_.workspace->roots()) {
      if (auto failed = collect(root, cancel, files, skipped)) return *failed;
    }
    if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled");
    std::set<std::string> dirs;
    for (const auto& file : files) dirs.insert(file.substr(0, std::max<size_t>(file.find_last_of('/'), 1)));
    readDirs_.assign(dirs.begin(), dirs.end());
    return readAll(files, skipped, cancel);
  }

 private:
  IgnoreOptions ignoreOptions() const {
    IgnoreOptions options;
    options.respectGitIgnore = params_.respectGit;
    options.respectGeminiIgnore = params_.respectGemini;
    if (params_.useDefaultExcludes) options.extraPatterns = defaultExcludes();
    options.extraPatterns.insert(options.extraPatterns.end(), params_.exclude.begin(), params_.exclude.end());
    return options;
  }

  // Explicit files go straight in (unless ignored); directories and globs
  // become globs for one walk of the root.
  std::optional<ToolResult> collect(const std::string& root, const CancelToken& cancel, std::set<std::string>& files,
                                    std::vector<Skipped>& skipped) const {
    const IgnoreOptions ignore = ignoreOptions();
    std::vector<GlobPattern> globs;
    for (const auto& raw : params_.include) {
      std::string pattern = normalise(raw);
      if (pattern.front() == '/') {
        if (pattern == root) pattern = ".";
        else if (pattern.compare(0, root.size() + 1, root + "/") == 0) pattern.erase(0, root.size() + 1);
        else continue;  // under another root
      }
      std::string abs = pattern == "." ? root : root + "/" + pattern;
      struct stat st {};
      std::string dirGlob;
      if (::stat(abs.c_str(), &st) == 0) {
        if (S_ISREG(st.st_mode)) {
          auto resolved = context_.workspace->resolve(abs);
          if (!resolved) {
            skipped.push_back(Skipped{pattern, "outside the workspace"});
          } else if (std::string rel = context_.workspace->relative(*resolved);
                     workspaceRootOf(*context_.workspace, *resolved) == root && isPathIgnored(root, rel, false, ignore)) {
            skipped.push_back(Skipped{rel, "ignored by .gitignore, .geminiignore or the exclude patterns"});
          } else {
            files.insert(*resolved);
          }
          continue;
        }
        if (S_ISDIR(st.st_mode)) {
          dirGlob = (pattern == "." ? "" : escapeGlob(pattern) + "/") + (params_.recursive ? "**" : "*");
        }
      }
      if (dirGlob.empty() && inStoreOnly(abs, cancel)) {  // e.g. an editor buffer not saved yet
        files.insert(abs);
        continue;
      }
      auto glob = GlobPattern::compile(dirGlob.empty() ? pattern : dirGlob, GlobCase::insensitive);
      if (!glob) return ToolResult::failure(ErrorType::invalid_params, "params.include: " + glob.error().message);
      globs.push_back(std::move(glob).value());
    }
    if (globs.empty()) return std::nullopt;

    WalkOptions options;
    options.threads = context_.limits.walkThreads;
    options.root = root;
    options.start = root;
    options.confine = context_.workspace.get();
    options.ignore = ignore;
    options.maxDepth = 0;
    for (const auto& g : globs) {
      auto most = g.maxSegments();
      if (!most) {
        options.maxDepth.reset();
        break;
      }
      options.maxDepth = std::max(*options.maxDepth, *most);
    }
    options.descend = [&](std::string_view relDir) {
      return std::any_of(globs.begin(), globs.end(), [&](const GlobPattern& g) { return g.couldMatchInside(relDir); });
    };
    std::vector<std::vector<std::string>> perWorker(walkThreads(options));
    auto stats = walkFiles(options, cancel, [&](const WalkEntry& entry) {
      for (const auto& g : globs) {
        if (g.matches(entry.rel)) {
          perWorker[entry.worker].emplace_back(entry.path);
          break;
        }
      }
      return WalkControl::proceed;
    });
    if (!stats) return ToolResult::failure(ErrorType::execution_failed, stats.error().message);
    for (auto& list : perWorker) files.insert(list.begin(), list.end());
    return std::nullopt;
  }

  // Why `path` is read only with the person's word (secrets always; what a
  // link leads to; files git ignores, also from a repository above the root,
  // unless respect_git_ignore is false, which asked), or "".
  std::string keptFromModel(const std::string& path) const {
    if (std::string why = secretFileReason(path); !why.empty()) return why;
    char target[PATH_MAX];
    if (!::realpath(path.c_str(), target)) return "";
    std::string why = guardedReadReason(*context_.workspace, target, false);
    if (why == "ignored by .gitignore" && !params_.respectGit) return "";
    return why;
  }

  // Images and PDFs are read only when include names them or their extension.
  bool namedExplicitly(const std::string& path) const {
    std::string name = path.substr(path.rfind('/') + 1);
    size_t dot = name.rfind('.');
    std::string ext = dot == std::string::npos ? "" : text::lower(name.substr(dot));
    std::string stem = dot == std::string::npos ? name : name.substr(0, dot);
    return std::any_of(params_.include.begin(), params_.include.end(), [&](const std::string& p) {
      return (!ext.empty() && text::lower(p).find(ext) != std::string::npos) || p.find(stem) != std::string::npos;
    });
  }

  static constexpr size_t kSniffBytes = 8192;

  // A path named without wildcards that is not on disk but that the session's
  // store can read.
  bool inStoreOnly(const std::string& abs, const CancelToken& cancel) const {
    if (abs.find_first_of("*?[{") != std::string::npos || ::access(abs.c_str(), F_OK) == 0) return false;
    if (!context_.workspace->resolve(abs)) return false;
    return static_cast<bool>(readStoreText(context_, abs, cancel));
  }

  ToolResult readAll(const std::set<std::string>& files, std::vector<Skipped>& skipped, const CancelToken& cancel) const {
    const auto& limits = context_.limits;
    ToolResult result;
    std::string text;
    std::vector<std::string> read;
    int64_t totalBytes = 0;
    size_t overBudget = 0;
    FileReader reader;
    for (const auto& path : files) {
      if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled");
      std::string rel = context_.workspace->relative(path);
      if (totalBytes >= limits.readManyMaxBytes) {
        ++overBudget;
        continue;
      }
      if (std::string why = keptFromModel(path); !why.empty()) {
        skipped.push_back(Skipped{rel, why + ": read it with read_file, which asks the person first"});
        continue;
      }
      std::string mime = inlineMimeType(path);
      if (!mime.empty() && !namedExplicitly(path)) {
        skipped.push_back(Skipped{rel, "image/PDF not named explicitly (name the file or its extension to read it)"});
        continue;
      }
      if (mime.empty() && hasBinaryExtension(path)) {
        skipped.push_back(Skipped{rel, "binary file"});
        continue;
      }
      // Images and PDFs are the disk's bytes; text comes from the session's
      // store (the editor's buffer when it has one), sniffed on the disk.
      auto bytes = reader.read(path.c_str(), mime.empty() ? kSniffBytes : static_cast<size_t>(limits.maxFileBytes) + 1);
      const bool storeOnly = !bytes && bytes.error().code == Errc::not_found && mime.empty();
      if (!bytes && !storeOnly) {
        skipped.push_back(Skipped{rel, "cannot read: " + bytes.error().message});
        continue;
      }
      if (!mime.empty()) {
        if (static_cast<int64_t>(bytes->size()) > limits.maxFileBytes) {
          skipped.push_back(Skipped{rel, "larger than " + std::to_string(limits.maxFileBytes) + " bytes"});
          continue;
        }
        if (!text.empty()) result.llmContent.push_back(LlmPart{std::move(text), {}, {}});
        text.clear();
        result.llmContent.push_back(LlmPart{{}, mime, base64Encode(*bytes)});
        read.push_back(rel);
        continue;
      }
      if (!storeOnly && looksBinary(*bytes)) {
        skipped.push_back(Skipped{rel, "binary file"});
        continue;
      }
      auto stored = readStoreText(context_, path, cancel);
      if (!stored) {
        skipped.push_back(Skipped{rel, "cannot read: " + stored.error().message});
        continue;
      }
      if (static_cast<int64_t>(stored->size()) > limits.maxFileBytes) {
        skipped.push_back(Skipped{rel, "larger than " + std::to_string(limits.maxFileBytes) + " bytes"});
        continue;
      }
      std::string body = excerpt(*stored);
      totalBytes += static_cast<int64_t>(body.size());
      text += "--- " + path + " ---\n\n" + body + "\n\n";
      read.push_back(rel);
    }
    if (overBudget > 0) {
      skipped.push_back(Skipped{std::to_string(overBudget) + " more file(s)",
                                "not read: the total size limit (" + std::to_string(limits.readManyMaxBytes) +
                                    " bytes) was reached"});
    }
    text += read.empty() ? "No files matching the criteria were found or all were skipped." : "\n--- End of content ---";
    if (!skipped.empty()) {
      text += "\n\nSkipped " + std::to_string(skipped.size()) + " item(s):\n";
      const size_t listed = std::min<size_t>(skipped.size(), 50);
      for (size_t i = 0; i < listed; ++i) text += "- " + skipped[i].path + " (" + skipped[i].reason + ")\n";
      if (listed < skipped.size()) text += "- ...and " + std::to_string(skipped.size() - listed) + " more\n";
    }
    if (overBudget > 0) {
      text += "\n[Output stopped at the size limit: read the remaining files with read_file, or narrow include.]";
    }
    result.llmContent.push_back(LlmPart{std::move(text), {}, {}});
    result.returnDisplay = display(read, skipped);
    // What was read and what was left out, for a custom command's @{…}.
    result.data = json::Raw{json::buildObject([&](json::Writer& w) {
      json::array(w, "read", [&] {
        for (const auto& path : read) json::str(w, path);
      });
      json::array(w, "skipped", [&] {
        for (const auto& skip : skipped) json::object(w, [&] {
          json::put(w, "path", skip.path);
          json::put(w, "reason", skip.reason);
        });
      });
    })};
    return result;
  }

  // The file's text, cut like read_file cuts it, with a warning when cut.
  std::string excerpt(std::string_view bytes) const {
    if (bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);
    const auto& limits = context_.limits;
    std::string out;
    bool cut = false;
    int64_t lines = 0;
    size_t start = 0;
    while (start < bytes.size()) {
      if (lines == limits.readDefaultLines) {
        cut = true;
        break;
      }
      size_t nl = bytes.find('\n', start);
      size_t end = nl == std::string_view::npos ? bytes.size() : nl;
      std::string_view line = bytes.substr(start, end - start);
      if (static_cast<int64_t>(line.size()) > limits.maxLineChars) {
        out.append(line.substr(0, static_cast<size_t>(limits.maxLineChars))).append("... [line cut]");
        cut = true;
      } else {
        out.append(line);
      }
      ++lines;
      if (nl == std::string_view::npos) break;
      out += '\n';
      start = nl + 1;
    }
    if (!cut) return out;
    return "[WARNING: This file was truncated (at most " + std::to_string(limits.readDefaultLines) +
           " lines, each cut at " + std::to_string(limits.maxLineChars) +
           " characters). To view the full content, use the 'read_file' tool on this specific file.]\n\n" + out;
  }

  std::string display(const std::vector<std::string>& read, const std::vector<Skipped>& skipped) const {
    std::string d = "### ReadManyFiles Result (Target Dir: `" + context_.workspace->cwd() + "`)\n\n";
    if (!read.empty()) {
      d += "Successfully read and concatenated content from **" + std::to_string(read.size()) + " file(s)**.\n";
      d += read.size() <= 10 ? "\n**Processed Files:**\n" : "\n**Processed Files (first 10 shown):**\n";
      for (size_t i = 0; i < std::min<size_t>(10, read.size()); ++i) d += "- `" + read[i] + "`\n";
      if (read.size() > 10) d += "- ...and " + std::to_string(read.size() - 10) + " more.\n";
    } else {
      d += "No files were read and concatenated based on the criteria.\n";
    }
    if (!skipped.empty()) {
      d += skipped.size() <= 5 ? "\n**Skipped " + std::to_string(skipped.size()) + " item(s):**\n"
                               : "\n**Skipped " + std::to_string(skipped.size()) + " item(s) (first 5 shown):**\n";
      for (size_t i = 0; i < std::min<size_t>(5, skipped.size()); ++i) {
        d += "- `" + skipped[i].path + "` (Reason: " + skipped[i].reason + ")\n";
      }
      if (skipped.size() > 5) d += "- ...and " + std::to_string(skipped.size() - 5) + " more.\n";
    }
    while (!d.empty() && d.back() == '\n') d.pop_back();
    return d;
  }

  ToolContext context_;
  ReadManyParams params_;
  std::vector<std::string> readDirs_;  // set by execute()
};

class ReadManyFilesTool final : public Tool {
 public:
  explicit ReadManyFilesTool(ToolContext context)
      : Tool(ToolInfo{.name = "read_many_files",
                      .displayName = "ReadManyFiles",
                      .description =
                          "Reads several files of the workspace at once, named by paths or globs (e.g. `src/**/*.ts`, "
                          "`docs/`), and returns their text joined with `--- path ---` separators. Binary files and "
                          "files ignored by .gitignore/.geminiignore are skipped and listed with the reason. Images "
                          "and PDFs are returned as inline data only when named explicitly (by file name or "
                          "extension). Large files are cut like read_file cuts them, and the total is capped.",
                      .kind = Kind::read,
                      .parametersSchema = kSchema}),
        context_(std::move(context)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    ReadManyParams p;
    p.include = r.optStrings("include").value_or(std::vector<std::string>{});
    p.exclude = r.optStrings("exclude").value_or(std::vector<std::string>{});
    p.recursive = r.optBool("recursive").value_or(true);
    p.useDefaultExcludes = r.optBool("useDefaultExcludes").value_or(true);
    if (auto filtering = r.optObject("file_filtering_options")) {
      p.respectGit = filtering->optBool("respect_git_ignore").value_or(true);
      p.respectGemini = filtering->optBool("respect_gemini_ignore").value_or(true);
    }
    if (!r.ok()) return invalidParams(r.error().message);
    if (p.include.empty()) return invalidParams("params.include: must name at least one path or glob");
    for (const auto& raw : p.include) {
      std::string pattern = normalise(raw);
      // The part before any glob syntax must stay inside the workspace.
      std::string fixed = pattern;
      if (hasGlobSyntax(pattern)) {
        size_t meta = pattern.find_first_of("*?[{");
        size_t slash = pattern.rfind('/', meta);
        fixed = slash == std::string::npos ? "." : pattern.substr(0, slash == 0 ? 1 : slash);
      }
      auto resolved = resolveToolPath(*context_.workspace, fixed);
      if (resolved.error && resolved.error->type == ErrorType::path_not_in_workspace) {
        return buildFailure(ErrorType::path_not_in_workspace,
                            "params.include: \"" + raw + "\": " + resolved.error->message);
      }
      if (auto glob = GlobPattern::compile(pattern); !glob)
        return invalidParams("params.include: " + glob.error().message);
    }
    return {std::make_unique<ReadManyInvocation>(context_, std::move(p)), std::nullopt};
  }

 private:
  ToolContext context_;
};

}  // namespace

std::unique_ptr<Tool> makeReadManyFilesTool(const ToolContext& context) {
  return std::make_unique<ReadManyFilesTool>(context);
}

}  // namespace lathe::tools
