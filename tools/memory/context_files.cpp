// Context file discovery: global, upward to the project root, bounded scan below.
#include "tools/memory/context_files.h"

#include <sys/stat.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tools/memory/memory_imports.h"
#include "tools/search/file_walker.h"
#include "tools/search/ignore_rules.h"
#include "protocol/base/text.h"

namespace lathe::tools {
namespace {
namespace fs = std::filesystem;

constexpr size_t kMaxContextFileBytes = 1024 * 1024;  // a bigger context file is left out

bool isRegularFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && static_cast<size_t>(st.st_size) <= kMaxContextFileBytes;
}

bool isDirectory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string canonicalOf(const std::string& path) {
  std::error_code ec;
  fs::path canonical = fs::canonical(path, ec);
  return ec ? std::string() : canonical.string();
}

// Collects files in order, each canonical path once.
class Collector {
 public:
  Collector(const ContextFileOptions& options, std::set<std::string>& known, const Workspace& workspace)
      : options_(options), known_(known), workspace_(workspace) {}

  // Adds the context files directly in `dir`, in file-name order. A project
  // file that is a symbolic link must lead inside `importRoots` (a
  // repository's GEMINI.md pointing at ~/.ssh/id_rsa is not read into the
  // prompt); the person's global file may lead anywhere (dotfiles).
  void addFrom(const std::string& dir, ContextFile::Tier tier, const std::vector<std::string>& importRoots) {
    for (const auto& name : options_.fileNames) {
      std::string candidate = dir + (dir == "/" ? "" : "/") + name;
      if (!isRegularFile(candidate)) continue;
      std::string canonical = canonicalOf(candidate);
      if (canonical.empty()) continue;
      bool inside = std::any_of(importRoots.begin(), importRoots.end(),
                                [&](const std::string& root) { return isWithin(canonical, root); });
      if (canonical != candidate && !inside && tier != ContextFile::Tier::global) continue;
      if (!known_.insert(canonical).second) continue;
      std::ifstream in(canonical, std::ios::binary);
      std::stringstream buffer;
      buffer << in.rdbuf();
      std::set<std::string> seen{canonical};
      ImportOptions imports{importRoots, options_.maxImportDepth};
      // A project's file must not pull in what the person keeps from the
      // model (a cloned repository's GEMINI.md importing their local .env).
      if (tier != ContextFile::Tier::global) imports.workspace = &workspace_;
      std::string content(text::trim(expandImports(buffer.str(), canonical, imports, seen)));
      if (!content.empty()) files_.push_back(ContextFile{tier, canonical, std::move(content)});
    }
  }
  std::vector<ContextFile> take() { return std::move(files_); }

 private:
  const ContextFileOptions& options_;
  std::set<std::string>& known_;
  const Workspace& workspace_;
  std::vector<ContextFile> files_;
};

// The folders from the project root holding `dir` down to `dir`: the
// nearest ancestor with a boundary marker; just `dir` when there is none.
std::vector<std::string> foldersFromProjectRoot(const std::string& dir, const ContextFileOptions& options) {
  std::vector<std::string> chain;
  for (fs::path at(dir);; at = at.parent_path()) {
    chain.push_back(at.string());
    bool boundary = std::any_of(options.boundaryMarkers.begin(), options.boundaryMarkers.end(),
                                [&](const std::string& marker) {
                                  std::error_code ec;  // an unreadable folder is not a project root
                                  return fs::exists(at / marker, ec);
                                });
    if (boundary) {
      std::reverse(chain.begin(), chain.end());
      return chain;
    }
    if (at == at.parent_path()) return {dir};
  }
}

// Breadth-first below `root`, at most options.maxScanDirs folders read,
// ignored folders and symbolic links skipped, names sorted.
void scanBelow(const std::string& root, const ContextFileOptions& options, Collector& collector,
               const std::vector<std::string>& importRoots, const CancelToken& cancel) {
  IgnoreOptions ignore;
  struct Pending {
    std::string abs;
    std::string rel;
    IgnoreRules rules;
  };
  std::deque<Pending> queue;
  queue.push_back({root, "", IgnoreRules::forRoot(root, ignore)});
  size_t read = 0;
  while (!queue.empty() && read < options.maxScanDirs && !cancel.cancelled()) {
    Pending dir = std::move(queue.front());
    queue.pop_front();
    ++read;
    if (!dir.rel.empty()) collector.addFrom(dir.abs, ContextFile::Tier::project, importRoots);
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(dir.abs, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
      std::error_code typeEc;
      if (it->is_directory(typeEc) && !it->is_symlink(typeEc)) names.push_back(it->path().filename().string());
    }
    std::sort(names.begin(), names.end());
    for (const auto& name : names) {
      if (name == ".git") continue;
      std::string rel = dir.rel.empty() ? name : dir.rel + "/" + name;
      if (dir.rules.isIgnored(rel, true)) continue;
      std::string abs = dir.abs + "/" + name;
      queue.push_back({abs, rel, dir.rules.enter(abs, rel)});
    }
  }
}

}  // namespace

std::vector<ContextFile> discoverContextFiles(const Workspace& workspace, const ContextFileOptions& options,
                                              const CancelToken& cancel) {
  std::set<std::string> known;
  Collector collector(options, known, workspace);
  if (!options.globalDir.empty() && isDirectory(options.globalDir)) {
    std::string global = canonicalOf(options.globalDir);
    collector.addFrom(global, ContextFile::Tier::global, {global});
  }
  for (const auto& root : workspace.roots()) {
    for (const auto& dir : foldersFromProjectRoot(root, options)) {
      collector.addFrom(dir, ContextFile::Tier::project, workspace.roots());
    }
  }
  for (const auto& root : workspace.roots()) scanBelow(root, options, collector, workspace.roots(), cancel);
  return collector.take();
}

std::vector<ContextFile> contextFilesAlong(const Workspace& workspace, const std::string& path,
                                           const ContextFileOptions& options, std::set<std::string>& known) {
  if (!workspace.contains(path)) return {};
  std::string root = workspaceRootOf(workspace, path);
  std::string dir = isDirectory(path) ? path : fs::path(path).parent_path().string();
  std::vector<std::string> chain;
  for (fs::path at(dir); isWithin(at.string(), root); at = at.parent_path()) {
    chain.push_back(at.string());
    if (at.string() == root || at == at.parent_path()) break;
  }
  std::reverse(chain.begin(), chain.end());
  Collector collector(options, known, workspace);
  for (const auto& folder : chain) {
    // What .geminiignore hides from reading tools stays hidden here too.
    if (folder != root && isPathIgnored(root, fs::path(folder).lexically_relative(root).string(), true,
                                        IgnoreOptions{false, true, {}})) {
      break;
    }
    collector.addFrom(folder, ContextFile::Tier::project, workspace.roots());
  }
  return collector.take();
}

std::string globalMemoryFile(const ContextFileOptions& options) {
  if (options.globalDir.empty() || options.fileNames.empty()) return {};
  return options.globalDir + "/" + options.fileNames.front();
}

std::string contextBlock(const ContextFile& file) {
  return "--- Context from: " + file.path + " ---\n" + file.content + "\n--- End of Context from: " + file.path + " ---";
}

}  // namespace lathe::tools
