// The parallel directory walk: a mutex-guarded LIFO stack of directory jobs
// and file batches, drained by the caller's thread plus helpers (tasks on the
// shared executor, whose workers are kept between walks). readdir's
// d_type avoids a stat per entry; only symlinks and unknown types are stat'ed.
#include "tools/search/file_walker.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "protocol/exec/task_group.h"

namespace lathe::tools {
namespace {

constexpr size_t kBatchFiles = 256;

// A directory whose entries are known, shared by its file batches.
struct DirInfo {
  std::string abs;
  size_t depth = 0;  // segments below start
  IgnoreRules rules; // in force for the entries of this directory
};

struct Job {
  // A directory to read (files empty) or a batch of its files to visit.
  std::string abs;
  size_t depth = 0;
  IgnoreRules parentRules;
  std::shared_ptr<const DirInfo> dir;
  std::vector<std::pair<std::string, bool>> files;  // name, is a symlink
};

size_t prefixLength(const std::string& dir) { return dir == "/" ? 1 : dir.size() + 1; }

class Walk {
 public:
  Walk(const WalkOptions& options, const CancelToken& cancel, const WalkVisitor& visit)
      : options_(options), cancel_(cancel), visit_(visit),
        rootPrefix_(prefixLength(options.root)), startPrefix_(prefixLength(options.start)) {}

  WalkStats run(IgnoreRules startRules) {
    if (options_.followSymlinks) {
      struct stat st {};
      if (::stat(options_.start.c_str(), &st) == 0) visitedDirs_.insert({st.st_dev, st.st_ino});
    }
    Job first;
    first.abs = options_.start;
    first.parentRules = std::move(startRules);
    push(std::move(first));
    unsigned threads = walkThreads(options_);
    exec::TaskGroup helpers;  // a helper that starts after the walk ended finds nothing to do
    for (unsigned i = 1; i < threads; ++i) helpers.post([this, i](const CancelToken&) { work(i); });
    work(0);
    helpers.join();
    WalkStats stats;
    stats.files = files_.load();
    stats.dirs = dirs_.load();
    stats.ignored = ignored_.load();
    stats.unreadable = unreadable_.load();
    stats.stopped = stopped_.load();
    stats.cancelled = cancelled_.load();
    return stats;
  }

 private:
  void push(Job job) {
    std::lock_guard lock(mutex_);
    stack_.push_back(std::move(job));
    ++pending_;
    ready_.notify_one();
  }

  bool pop(Job& job) {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return !stack_.empty() || pending_ == 0 || halted(); });
    if (halted() || stack_.empty()) return false;
    job = std::move(stack_.back());
    stack_.pop_back();
    return true;
  }

  void finish() {
    std::lock_guard lock(mutex_);
    if (--pending_ == 0) ready_.notify_all();
  }

  bool halted() const { return stopped_.load(std::memory_order_relaxed) || cancelled_.load(std::memory_order_relaxed); }

  void halt(std::atomic<bool>& flag) {
    flag.store(true);
    std::lock_guard lock(mutex_);
    ready_.notify_all();
  }

  void work(unsigned worker) {
    Job job;
    std::string pathBuffer;
    while (pop(job)) {
      if (cancel_.cancelled()) {
        halt(cancelled_);
      } else if (job.dir) {
        visitFiles(*job.dir, job.files, worker, pathBuffer);
      } else {
        readDir(job, worker, pathBuffer);
      }
      finish();
    }
  }

  // Whether a symlink's target stays inside the workspace.
  bool targetAllowed(const std::string& linkPath) const {
    if (!options_.confine) return true;
    char resolved[PATH_MAX];
    if (::realpath(linkPath.c_str(), resolved) == nullptr) return false;
    return options_.confine->contains(resolved);
  }

  void readDir(Job& job, unsigned worker, std::string& pathBuffer) {
    int fd = ::open(job.abs.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR* dir = fd >= 0 ? ::fdopendir(fd) : nullptr;
    if (dir == nullptr) {
      if (fd >= 0) ::close(fd);
      ++unreadable_;
      return;
    }
    ++dirs_;
    struct Entry {
      std::string name;
      unsigned char type;
    };
    std::vector<Entry> entries;
    bool hasGitIgnore = false, hasGeminiIgnore = false;
    while (struct dirent* e = ::readdir(dir)) {
      const char* name = e->d_name;
      if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
      if (std::strcmp(name, ".git") == 0) continue;
      if (std::strcmp(name, ".gitignore") == 0) hasGitIgnore = true;
      if (std::strcmp(name, ".geminiignore") == 0) hasGeminiIgnore = true;
      unsigned char type = e->d_type;
      if (type == DT_UNKNOWN) {
        struct stat st {};
        if (::fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
      }
      if (type == DT_DIR || type == DT_REG || type == DT_LNK) entries.push_back(Entry{name, type});
    }

    auto info = std::make_shared<DirInfo>();
    info->abs = std::move(job.abs);
    info->depth = job.depth;
    // The root's own ignore files are part of the rules the walk starts with.
    info->rules = info->abs == options_.root
                      ? std::move(job.parentRules)
                      : job.parentRules.enter(info->abs, relToRoot(info->abs), hasGitIgnore, hasGeminiIgnore);

    std::vector<std::pair<std::string, bool>> files;
    const bool childrenMayHoldFiles = !options_.maxDepth || info->depth + 2 <= *options_.maxDepth;
    const bool filesAllowed = !options_.maxDepth || info->depth + 1 <= *options_.maxDepth;
    for (auto& entry : entries) {
      pathBuffer.assign(info->abs);
      if (pathBuffer.back() != '/') pathBuffer += '/';
      pathBuffer += entry.name;
      bool isLink = entry.type == DT_LNK;
      bool isDir = entry.type == DT_DIR;
      if (isLink) {
        struct stat st {};
        if (::fstatat(fd, entry.name.c_str(), &st, 0) != 0) continue;  // dangling
        isDir = S_ISDIR(st.st_mode);
        if (!isDir && !S_ISREG(st.st_mode)) continue;
        if (isDir && !options_.followSymlinks) continue;
        if (!targetAllowed(pathBuffer)) continue;
        if (isDir) {
          std::lock_guard lock(visitedMutex_);
          if (!visitedDirs_.insert({st.st_dev, st.st_ino}).second) continue;  // a loop or seen already
        }
      }
      if (info->rules.isIgnored(std::string_view(pathBuffer).substr(rootPrefix_), isDir)) {
        ++ignored_;
        continue;
      }
      if (isDir) {
        if (!childrenMayHoldFiles) continue;
        if (options_.descend && !options_.descend(std::string_view(pathBuffer).substr(startPrefix_))) continue;
        Job child;
        child.abs = pathBuffer;
        child.depth = info->depth + 1;
        child.parentRules = info->rules;
        push(std::move(child));
      } else if (filesAllowed) {
        files.emplace_back(std::move(entry.name), isLink);
      }
    }
    ::closedir(dir);

    // Large directories are shared out in batches; the first is visited here.
    while (files.size() > kBatchFiles) {
      Job batch;
      batch.dir = info;
      batch.files.assign(std::make_move_iterator(files.end() - kBatchFiles), std::make_move_iterator(files.end()));
      files.resize(files.size() - kBatchFiles);
      push(std::move(batch));
    }
    visitFiles(*info, files, worker, pathBuffer);
  }

  void visitFiles(const DirInfo& dir, const std::vector<std::pair<std::string, bool>>& files, unsigned worker,
                  std::string& pathBuffer) {
    for (const auto& [name, isLink] : files) {
      if (halted()) return;
      pathBuffer.assign(dir.abs);
      if (pathBuffer.back() != '/') pathBuffer += '/';
      pathBuffer += name;
      WalkEntry entry;
      entry.path = pathBuffer;
      entry.rel = std::string_view(pathBuffer).substr(startPrefix_);
      entry.isSymlink = isLink;
      entry.worker = worker;
      ++files_;
      if (visit_(entry) == WalkControl::stop) {
        halt(stopped_);
        return;
      }
      if ((files_.load(std::memory_order_relaxed) & 255) == 0 && cancel_.cancelled()) {
        halt(cancelled_);
        return;
      }
    }
  }

  std::string_view relToRoot(const std::string& abs) const {
    return abs.size() < rootPrefix_ ? std::string_view() : std::string_view(abs).substr(rootPrefix_);
  }

  const WalkOptions& options_;
  const CancelToken& cancel_;
  const WalkVisitor& visit_;
  const size_t rootPrefix_;
  const size_t startPrefix_;

  std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<Job> stack_;
  size_t pending_ = 0;

  std::mutex visitedMutex_;
  std::set<std::pair<dev_t, ino_t>> visitedDirs_;

  std::atomic<size_t> files_{0}, dirs_{0}, ignored_{0}, unreadable_{0};
  std::atomic<bool> stopped_{false}, cancelled_{false};
};

bool isWithin(const std::string& path, const std::string& root) {
  if (path == root) return true;
  if (root == "/") return !path.empty() && path[0] == '/';
  return path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/';
}

}  // namespace

std::string workspaceRootOf(const Workspace& workspace, const std::string& path) {
  std::string best;
  for (const auto& root : workspace.roots()) {
    if (isWithin(path, root) && root.size() > best.size()) best = root;
  }
  return best.empty() ? workspace.cwd() : best;
}

namespace {

// Whether the ignore files `options` names, of the root holding `path`, ignore it.
bool ignoredByFiles(const Workspace& workspace, const std::string& path, const IgnoreOptions& options) {
  std::string root = workspaceRootOf(workspace, path);
  if (path.size() <= root.size() + 1 || !isWithin(path, root)) return false;
  return isPathIgnored(root, std::string_view(path).substr(root.size() + 1), false, options);
}

}  // namespace

bool ignoredByGeminiIgnore(const Workspace& workspace, const std::string& path) {
  IgnoreOptions gemini;
  gemini.respectGitIgnore = false;
  return ignoredByFiles(workspace, path, gemini);
}

bool ignoredByGitIgnore(const Workspace& workspace, const std::string& path, bool isDir) {
  // A workspace opened inside a repository: the ignore files above it count
  // too, as git counts them.
  const std::string root = workspaceRootOf(workspace, path);
  std::string top = root;
  for (std::string dir = root; !dir.empty(); dir.resize(dir.find_last_of('/'))) {
    if (::access((dir + "/.git").c_str(), F_OK) != 0) continue;
    // A root the repository itself ignores (a build folder, a home folder
    // under a dotfiles repository that ignores "*") is not part of it.
    IgnoreOptions above;
    above.respectGeminiIgnore = false;
    if (dir != root && !isPathIgnored(dir, std::string_view(root).substr(dir.size() + 1), true, above)) top = dir;
    break;
  }
  if (path.size() <= top.size() + 1 || !isWithin(path, top)) return false;
  IgnoreOptions git;
  git.respectGeminiIgnore = false;
  return isPathIgnored(top, std::string_view(path).substr(top.size() + 1), isDir, git);
}

std::string geminiIgnoredMessage(const std::string& path) {
  return "File path " + path + " is ignored by the workspace's .geminiignore patterns";
}

unsigned walkThreads(const WalkOptions& options) {
  if (options.threads > 0) return options.threads;
  // Walking and reading a cold tree waits on the disk, not the CPU: more
  // threads than cores keep more requests in flight. Measured on 2 cores
  // (bench/README.md): 8 threads search a cold 587 MB tree 1.8-2.4x faster
  // than 2, and warm searches are no slower.
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return std::clamp(2 * cores, 8u, 16u);
}

Result<WalkStats> walkFiles(const WalkOptions& options, const CancelToken& cancel, const WalkVisitor& visit) {
  struct stat st {};
  if (::stat(options.start.c_str(), &st) != 0) return makeError(Errc::not_found, "no such directory: " + options.start);
  if (!S_ISDIR(st.st_mode)) return makeError(Errc::invalid_params, options.start + " is not a directory");
  if (!isWithin(options.start, options.root)) {
    return makeError(Errc::invalid_params, options.start + " is not inside " + options.root);
  }
  // Rules in force inside start's parent: the root's, then each directory's
  // own files on the way down.
  IgnoreRules rules = IgnoreRules::forRoot(options.root, options.ignore);
  if (options.start != options.root) {
    const size_t rootPrefix = prefixLength(options.root);
    size_t pos = options.start.find('/', rootPrefix);
    while (pos != std::string::npos) {
      std::string dir = options.start.substr(0, pos);
      rules = rules.enter(dir, std::string_view(dir).substr(rootPrefix));
      pos = options.start.find('/', pos + 1);
    }
  }
  Walk walk(options, cancel, visit);
  return walk.run(std::move(rules));
}

}  // namespace lathe::tools
