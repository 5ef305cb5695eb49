// grep_search: the lines matching a regex or fixed string in the files below
// a directory of the workspace (or in one file), grouped by file as Gemini
// CLI prints them. execute() runs on a worker thread and fans the search out
// over the file walker's threads; each walker thread keeps its own reader,
// match scratch and results, merged and sorted by path at the end.
//
// It scans the disk, not the session's FileStore (unlike read_file): the
// store answers for one named file at a time (through the editor, a round
// trip per file), so asking it for every file of a tree would make a search
// cost one editor request per file, and no editor protocol lists which
// buffers are unsaved. A match in text not saved yet is found once it is
// saved; read_file then shows the buffer the edit tools will see.
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "tools/core/hard_links.h"
#include "tools/files/file_content.h"
#include "tools/files/guarded_reads.h"
#include "tools/files/secret_files.h"
#include "tools/search/file_walker.h"
#include "tools/search/glob_match.h"
#include "tools/search/search_tools.h"
#include "tools/search/text_search.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "description": "The regular expression (PCRE syntax) to search for in file contents, e.g. 'function\\s+myFunction'. With fixed_strings, a plain string."},
    "dir_path": {"type": "string", "description": "Directory (or single file) to search: absolute, or relative to the workspace root. Defaults to the workspace root."},
    "include_pattern": {"type": "string", "description": "Glob of files to search, e.g. '*.ts', '*.{ts,tsx}', 'src/**'. Without a '/', it matches file names at any depth."},
    "exclude_pattern": {"type": "string", "description": "A regular expression: matching lines that also match it are left out."},
    "names_only": {"type": "boolean", "description": "List only the paths of files that match. Defaults to false."},
    "case_sensitive": {"type": "boolean", "description": "Match case exactly. Defaults to false (case-insensitive)."},
    "fixed_strings": {"type": "boolean", "description": "Treat pattern as a literal string, not a regex. Defaults to false."},
    "context": {"type": "integer", "minimum": 0, "description": "Lines of context to show before and after each match."},
    "after": {"type": "integer", "minimum": 0, "description": "Lines of context to show after each match."},
    "before": {"type": "integer", "minimum": 0, "description": "Lines of context to show before each match."},
    "no_ignore": {"type": "boolean", "description": "Also search files left out by .gitignore, .geminiignore and the default excludes (node_modules, build, dist, ...). Defaults to false."},
    "max_matches_per_file": {"type": "integer", "minimum": 1, "description": "Most matching lines to return from one file."},
    "total_max_matches": {"type": "integer", "minimum": 1, "description": "Most matching lines to return in all. Defaults to 100."}
  },
  "required": ["pattern"]
})";

// What Gemini CLI leaves out of a search unless no_ignore is set.
std::vector<std::string> defaultExcludes() {
  return {"node_modules/", "bower_components/", ".svn/", ".hg/", ".vscode/", ".idea/", "dist/",
          "build/",        "coverage/",        "__pycache__/", "*.log", "*.tmp"};
}

struct GrepParams {
  std::string pattern;
  std::string dirDisplay = ".";  // dir_path as given
  std::string path;              // resolved, absolute
  std::string include;
  std::string exclude;
  bool namesOnly = false;
  bool caseSensitive = false;
  bool fixedStrings = false;
  bool noIgnore = false;
  std::optional<int64_t> context, after, before;
  std::optional<int64_t> maxPerFile;
  int64_t totalMax = 100;
};

struct Compiled {
  TextMatcher matcher;
  std::optional<TextMatcher> exclude;
  std::optional<GlobPattern> include;
  bool includeAnchored = false;  // matched against the path, not the name
};

struct Hit {
  int64_t line = 0;
  size_t start = 0, end = 0;  // byte offsets, valid while the file is loaded
};

struct OutLine {
  int64_t line = 0;
  std::string text;
  bool context = false;
};

struct FileHits {
  std::string rel;  // relative to the searched directory
  std::string abs;
  std::vector<Hit> hits;
  std::vector<OutLine> lines;
  bool capped = false;  // max_matches_per_file left matches out
};

std::string cutLine(std::string_view line, int64_t maxChars) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  if (static_cast<int64_t>(line.size()) <= maxChars) return std::string(line);
  size_t cut = static_cast<size_t>(maxChars);
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;  // keep UTF-8 whole
  return std::string(line.substr(0, cut)) + "... [line cut]";
}

size_t previousLineStart(std::string_view text, size_t lineStart) {
  if (lineStart < 2) return 0;
  const void* nl = ::memrchr(text.data(), '\n', lineStart - 1);
  return nl ? static_cast<const char*>(nl) - text.data() + 1 : 0;
}

size_t lineEndFrom(std::string_view text, size_t start) {
  const void* nl = std::memchr(text.data() + start, '\n', text.size() - start);
  return nl ? static_cast<const char*>(nl) - text.data() : text.size();
}

// The lines to show for a file's hits: each match, with up to `before` and
// `after` context lines that are not themselves shown already.
std::vector<OutLine> buildLines(std::string_view text, const std::vector<Hit>& hits, int64_t before, int64_t after,
                                int64_t maxChars) {
  std::vector<OutLine> out;
  int64_t lastShown = 0;
  for (size_t i = 0; i < hits.size(); ++i) {
    const Hit& h = hits[i];
    std::vector<OutLine> lead;
    size_t start = h.start;
    for (int64_t k = 1; k <= before && h.line - k > lastShown && start > 0; ++k) {
      size_t prev = previousLineStart(text, start);
      lead.push_back(OutLine{h.line - k, cutLine(text.substr(prev, start - 1 - prev), maxChars), true});
      start = prev;
    }
    out.insert(out.end(), std::make_move_iterator(lead.rbegin()), std::make_move_iterator(lead.rend()));
    out.push_back(OutLine{h.line, cutLine(text.substr(h.start, h.end - h.start), maxChars), false});
    lastShown = h.line;
    size_t end = h.end;
    int64_t nextHit = i + 1 < hits.size() ? hits[i + 1].line : INT64_MAX;
    for (int64_t k = 1; k <= after && h.line + k < nextHit && end + 1 < text.size(); ++k) {
      size_t s = end + 1;
      end = lineEndFrom(text, s);
      out.push_back(OutLine{h.line + k, cutLine(text.substr(s, end - s), maxChars), true});
      lastShown = h.line + k;
    }
  }
  return out;
}

// Byte ranges of the given (sorted, 1-based) line numbers; lines past the
// end are dropped.
std::vector<Hit> locateLines(std::string_view text, const std::vector<int64_t>& lines) {
  std::vector<Hit> hits;
  size_t start = 0;
  int64_t current = 1;
  for (int64_t want : lines) {
    while (current < want && start < text.size()) {
      start = lineEndFrom(text, start) + 1;
      ++current;
    }
    if (current != want || start >= text.size()) break;
    hits.push_back(Hit{want, start, lineEndFrom(text, start)});
  }
  return hits;
}

// Search state shared by the walker threads.
struct SearchRun {
  const GrepParams& params;
  const Compiled& compiled;
  int64_t maxLineChars;
  const Workspace* workspace;  // for files with several hard links
  std::atomic<int64_t> reserved{0};
  std::atomic<bool> limitHit{false};
};

struct Worker {
  std::shared_ptr<MatchScratch> scratch;
  std::shared_ptr<MatchScratch> excludeScratch;
  FileReader reader;
  std::vector<FileHits> files;
  size_t binary = 0;
  size_t unreadable = 0;
  size_t hardLinked = 0;  // skipped: another link may be outside the workspace
  size_t guarded = 0;     // skipped: kept from the model (secrets, links to ignored files)
};

// Searches one loaded file into `out`; false when the total limit is reached.
bool searchText(std::string_view text, SearchRun& run, Worker& w, FileHits& out) {
  const GrepParams& p = run.params;
  const size_t perFile = p.namesOnly ? 1 : static_cast<size_t>(p.maxPerFile.value_or(INT64_MAX));
  size_t from = 0, counted = 0;
  int64_t line = 1;
  bool more = true;
  while (auto span = run.compiled.matcher.nextMatchingLine(text, from, *w.scratch)) {
    line += static_cast<int64_t>(countNewlines(text.substr(counted, span->start - counted)));
    counted = span->start;
    from = span->end + 1;
    if (run.compiled.exclude &&
        run.compiled.exclude->matchesLine(text.substr(span->start, span->end - span->start), *w.excludeScratch)) {
      continue;
    }
    if (out.hits.size() >= perFile) {
      out.capped = !p.namesOnly;
      break;
    }
    if (run.reserved.fetch_add(1) >= p.totalMax) {
      run.limitHit = true;
      more = false;
      break;
    }
    out.hits.push_back(Hit{line, span->start, span->end});
    if (p.namesOnly) break;
  }
  if (!out.hits.empty() && !p.namesOnly) {
    int64_t before = p.before.value_or(p.context.value_or(0));
    int64_t after = p.after.value_or(p.context.value_or(0));
    out.lines = buildLines(text, out.hits, before, after, run.maxLineChars);
  }
  return more;
}

// `abs` must be NUL-terminated.
bool searchFile(std::string_view abs, std::string_view rel, SearchRun& run, Worker& w) {
  struct stat st {};
  auto bytes = w.reader.read(abs.data(), SIZE_MAX, &st);
  if (!bytes) {
    ++w.unreadable;
    return true;
  }
  if (st.st_nlink > 1 && run.workspace && outsideHardLinks(*run.workspace, std::string(abs), st)) {
    ++w.hardLinked;
    return true;
  }
  if (hasNulPrefix(*bytes)) {
    ++w.binary;
    return true;
  }
  FileHits hits;
  bool more = searchText(*bytes, run, w, hits);
  if (!hits.hits.empty()) {
    hits.rel = std::string(rel);
    hits.abs = std::string(abs);
    w.files.push_back(std::move(hits));
  }
  return more;
}

std::string joinCount(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

class GrepInvocation final : public ToolInvocation {
 public:
  GrepInvocation(ToolContext context, GrepParams params, Compiled compiled)
      : context_(std::move(context)), params_(std::move(params)), compiled_(std::move(compiled)) {}

  std::string description() const override {
    std::string text = "'" + params_.pattern + "'";
    if (!params_.include.empty()) text += " in " + params_.include;
    std::string rel = context_.workspace->relative(params_.path);
    text += " within " + (rel == "." ? std::string("./") : rel);
    return text;
  }

  std::vector<Location> locations() const override { return {Location{params_.path, std::nullopt}}; }

  // What the person keeps from the model is searched only when they say so:
  // everything git ignores (no_ignore), or one such file named to it.
  Result<std::optional<ConfirmationDetails>> shouldConfirmExecute(const CancelToken&) override {
    if (params_.noIgnore) {
      ReadConfirmation ask;
      ask.files.push_back({params_.path, "files .gitignore leaves out are searched too (no_ignore is true)"});
      return std::optional<ConfirmationDetails>{std::move(ask)};
    }
    struct stat st {};
    if (::stat(params_.path.c_str(), &st) != 0) return std::optional<ConfirmationDetails>{};
    std::string why = guardedReadReason(*context_.workspace, params_.path, S_ISDIR(st.st_mode));
    if (why.empty()) return std::optional<ConfirmationDetails>{};
    return std::optional<ConfirmationDetails>{ReadConfirmation{{{params_.path, std::move(why)}}}};
  }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    struct stat st {};
    if (::stat(params_.path.c_str(), &st) != 0) {
      return ToolResult::failure(ErrorType::file_not_found, "Path does not exist: " + params_.path);
    }
    if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
      return ToolResult::failure(ErrorType::not_a_directory, "Path is not a directory or a file: " + params_.path);
    }
    SearchRun run{params_, compiled_, context_.limits.maxLineChars, context_.workspace.get()};
    std::vector<std::unique_ptr<Worker>> workers;
    if (S_ISREG(st.st_mode)) {
      // A file named to it is read as read_file reads it: .geminiignore applies.
      if (!params_.noIgnore && ignoredByGeminiIgnore(*context_.workspace, params_.path)) {
        return ToolResult::failure(ErrorType::invalid_params, geminiIgnoredMessage(params_.path));
      }
      workers.push_back(makeWorker());
      std::string_view path = params_.path;
      searchFile(path, path.substr(path.rfind('/') + 1), run, *workers[0]);
    } else {
      WalkOptions options;
      options.threads = context_.limits.walkThreads;
      options.root = workspaceRootOf(*context_.workspace, params_.path);
      options.start = params_.path;
      options.confine = context_.workspace.get();
      if (params_.noIgnore) {
        options.ignore.respectGitIgnore = false;
        options.ignore.respectGeminiIgnore = false;
      } else {
        options.ignore.extraPatterns = defaultExcludes();
      }
      if (compiled_.include && compiled_.includeAnchored) {
        options.descend = [this](std::string_view relDir) { return compiled_.include->couldMatchInside(relDir); };
      }
      for (unsigned i = 0; i < walkThreads(options); ++i) workers.push_back(makeWorker());
      auto stats = walkFiles(options, cancel, [&](const WalkEntry& entry) {
        if (compiled_.include) {
          std::string_view target = entry.rel;
          if (!compiled_.includeAnchored) target = target.substr(target.rfind('/') + 1);
          if (!compiled_.include->matches(target)) return WalkControl::proceed;
        }
        if (keptFromModel(entry)) {
          ++workers[entry.worker]->guarded;
          return WalkControl::proceed;
        }
        bool more = searchFile(entry.path, entry.rel, run, *workers[entry.worker]);
        return more ? WalkControl::proceed : WalkControl::stop;
      });
      if (!stats) return ToolResult::failure(ErrorType::execution_failed, stats.error().message);
      if (stats->cancelled) return ToolResult::failure(ErrorType::cancelled, "Cancelled");
    }
    if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled");

    std::vector<FileHits> files;
    size_t binary = 0, hardLinked = 0, guarded = 0;
    for (auto& w : workers) {
      binary += w->binary;
      hardLinked += w->hardLinked;
      guarded += w->guarded;
      files.insert(files.end(), std::make_move_iterator(w->files.begin()), std::make_move_iterator(w->files.end()));
    }
    std::sort(files.begin(), files.end(), [](const FileHits& a, const FileHits& b) { return a.rel < b.rel; });
    size_t matches = 0;
    for (const auto& f : files) matches += f.hits.size();
    addAutoContext(files, matches, *workers.front());
    ToolResult result = format(files, matches, run.limitHit.load(), binary);
    if (hardLinked > 0 && !result.llmContent.empty()) {
      result.llmContent.front().text += "\n(" + joinCount(hardLinked, "file was", "files were") +
                                        " not searched: several hard links, not all of them inside the workspace.)";
    }
    if (guarded > 0 && !result.llmContent.empty()) {
      result.llmContent.front().text += "\n(" + joinCount(guarded, "file was", "files were") +
                                        " not searched: shaped like secrets, or links to files kept from the model; "
                                        "read_file asks the person for one.)";
    }
    return result;
  }

 private:
  // A file searched only with the person's word: shaped like secrets (always),
  // or a link whose target is (or that git ignores, or that is inside .git).
  bool keptFromModel(const WalkEntry& entry) const {
    if (!secretFileReason(std::string(entry.path)).empty()) return true;
    if (!entry.isSymlink) return false;
    char target[PATH_MAX];
    if (!::realpath(entry.path.data(), target)) return true;
    return !guardedReadReason(*context_.workspace, target, false).empty();
  }

  std::unique_ptr<Worker> makeWorker() const {
    auto w = std::make_unique<Worker>();
    w->scratch = compiled_.matcher.makeScratch();
    if (compiled_.exclude) w->excludeScratch = compiled_.exclude->makeScratch();
    return w;
  }

  // Like Gemini CLI: with 1-3 matches and no context asked for, show the
  // surroundings (50 lines for one match, 15 for two or three).
  void addAutoContext(std::vector<FileHits>& files, size_t matches, Worker& w) const {
    if (matches < 1 || matches > 3 || params_.namesOnly || params_.context || params_.before || params_.after) return;
    const int64_t lines = matches == 1 ? 50 : 15;
    for (auto& f : files) {
      auto bytes = w.reader.read(f.abs.c_str());
      if (!bytes) continue;
      std::vector<int64_t> numbers;
      for (const auto& h : f.hits) numbers.push_back(h.line);
      auto located = locateLines(*bytes, numbers);
      if (located.size() == numbers.size()) f.lines = buildLines(*bytes, located, lines, lines, context_.limits.maxLineChars);
    }
  }

  ToolResult format(const std::vector<FileHits>& files, size_t matches, bool limitHit, size_t binary) const {
    std::string where = "in path \"" + params_.dirDisplay + "\"";
    if (!params_.include.empty()) where += " (filter: \"" + params_.include + "\")";
    std::string limited =
        limitHit ? " (results limited to " + std::to_string(params_.totalMax) + " matches for performance)" : "";
    std::string limitNote;
    if (limitHit) {
      limitNote = "\n\n[Search stopped at total_max_matches=" + std::to_string(params_.totalMax) +
                  ": more matches exist. Narrow the pattern, dir_path or include_pattern, or raise total_max_matches.]";
    }
    if (files.empty()) {
      std::string llm = "No matches found for pattern \"" + params_.pattern + "\" " + where + ".";
      if (binary > 0) llm += " " + joinCount(binary, "binary file was", "binary files were") + " skipped.";
      return ToolResult::text(llm, "No matches found");
    }
    std::string llm;
    if (params_.namesOnly) {
      llm = "Found " + joinCount(files.size(), "file", "files") + " with matches for pattern \"" + params_.pattern +
            "\" " + where + limited + ":\n";
      for (const auto& f : files) llm += f.rel + "\n";
      if (!llm.empty()) llm.pop_back();
      llm += limitNote;
      return ToolResult::text(std::move(llm),
                              "Found " + joinCount(files.size(), "file", "files") + (limitHit ? " (limited)" : ""));
    }
    llm = "Found " + joinCount(matches, "match", "matches") + " for pattern \"" + params_.pattern + "\" " + where +
          limited + ":\n---\n";
    size_t capped = 0;
    for (const auto& f : files) {
      llm += "File: " + f.rel + "\n";
      for (const auto& line : f.lines) {
        llm += "L" + std::to_string(line.line) + (line.context ? "- " : ": ") + line.text + "\n";
      }
      if (f.capped) {
        ++capped;
        llm += "[more matches in this file not shown: max_matches_per_file=" + std::to_string(*params_.maxPerFile) + "]\n";
      }
      llm += "---\n";
    }
    llm.pop_back();
    llm += limitNote;
    std::string display = "Found " + joinCount(matches, "match", "matches");
    if (limitHit || capped > 0) display += " (limited)";
    return ToolResult::text(std::move(llm), std::move(display));
  }

  ToolContext context_;
  GrepParams params_;
  Compiled compiled_;
};

class GrepSearchTool final : public Tool {
 public:
  explicit GrepSearchTool(ToolContext context)
      : Tool(ToolInfo{
            .name = "grep_search",
            .displayName = "SearchText",
            .description =
                "Searches file contents for a regular expression (or a fixed string) below a directory of the "
                "workspace and returns the matching lines grouped by file, with 1-based line numbers "
                "(`L12: text`; context lines are `L13- text`). Case-insensitive unless case_sensitive is true. "
                "Respects .gitignore and .geminiignore and skips binary files and common build/dependency "
                "folders unless no_ignore is true. At most 100 matching lines unless total_max_matches says "
                "otherwise.",
            .kind = Kind::search,
            .parametersSchema = kSchema}),
        context_(std::move(context)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    GrepParams p;
    p.pattern = r.str("pattern");
    auto dir = r.optStr("dir_path");
    p.include = r.optStr("include_pattern").value_or("");
    p.exclude = r.optStr("exclude_pattern").value_or("");
    p.namesOnly = r.optBool("names_only").value_or(false);
    p.caseSensitive = r.optBool("case_sensitive").value_or(false);
    p.fixedStrings = r.optBool("fixed_strings").value_or(false);
    p.noIgnore = r.optBool("no_ignore").value_or(false);
    p.context = r.optInt64("context");
    p.after = r.optInt64("after");
    p.before = r.optInt64("before");
    p.maxPerFile = r.optInt64("max_matches_per_file");
    p.totalMax = r.optInt64("total_max_matches").value_or(context_.limits.grepDefaultMaxMatches);
    if (!r.ok()) return invalidParams(r.error().message);
    if (p.totalMax < 1) return invalidParams("params.total_max_matches: must be at least 1");
    if (p.maxPerFile && *p.maxPerFile < 1) return invalidParams("params.max_matches_per_file: must be at least 1");

    Compiled c;
    auto matcher = TextMatcher::compile(TextQuery{p.pattern, p.caseSensitive, p.fixedStrings});
    if (!matcher) return invalidParams("params.pattern: " + matcher.error().message);
    c.matcher = std::move(matcher).value();
    if (!p.exclude.empty()) {
      auto exclude = TextMatcher::compile(TextQuery{p.exclude, p.caseSensitive, false});
      if (!exclude) return invalidParams("params.exclude_pattern: " + exclude.error().message);
      c.exclude = std::move(exclude).value();
    }
    if (!p.include.empty()) {
      std::string_view glob = p.include;
      while (glob.substr(0, 2) == "./") glob.remove_prefix(2);
      c.includeAnchored = glob.find('/') != std::string_view::npos;
      while (!glob.empty() && glob.front() == '/') glob.remove_prefix(1);
      auto include = GlobPattern::compile(glob);
      if (!include) return invalidParams("params.include_pattern: " + include.error().message);
      c.include = std::move(include).value();
    }
    if (dir && !dir->empty()) p.dirDisplay = *dir;
    auto resolved = resolveToolPath(*context_.workspace, dir && !dir->empty() ? *dir : context_.workspace->cwd());
    if (resolved.error) return {nullptr, resolved.error};
    p.path = resolved.path;
    return {std::make_unique<GrepInvocation>(context_, std::move(p), std::move(c)), std::nullopt};
  }

 private:
  ToolContext context_;
};

}  // namespace

std::unique_ptr<Tool> makeGrepSearchTool(const ToolContext& context) {
  return std::make_unique<GrepSearchTool>(context);
}

}  // namespace lathe::tools
