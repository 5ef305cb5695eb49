// libgit2 stays in this file.
#include "tools/snapshots/shadow_repo.h"

#include <fcntl.h>
#include <git2.h>
#include <git2/sys/repository.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string_view>

#include "tools/snapshots/change_watch.h"

namespace lathe::tools {

namespace {

Error gitError(const std::string& what) {
  const git_error* e = git_error_last();
  return makeError(Errc::io, what + ": " + (e && e->message ? e->message : "unknown libgit2 error"));
}

std::string hex(const git_oid& oid) {
  char text[GIT_OID_HEXSZ + 1];
  git_oid_tostr(text, sizeof text, &oid);
  return text;
}

bool parse(const std::string& text, git_oid& oid) { return git_oid_fromstr(&oid, text.c_str()) == 0; }

template <class T, void (*Free)(T*)>
struct Owned {
  T* p = nullptr;
  ~Owned() { if (p) Free(p); }
};

// Holds the shadow repository's lock file: other sessions and processes
// updating the same index wait.
class LockFile {
 public:
  explicit LockFile(const std::string& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600)) {
    if (fd_ >= 0) ::flock(fd_, LOCK_EX);
  }
  ~LockFile() { if (fd_ >= 0) ::close(fd_); }
  bool held() const { return fd_ >= 0; }

 private:
  int fd_;
};

// What one snapshot may take in: a folder this big is not a project (a home
// folder opened as the workspace), and hashing it all would stall the turn.
constexpr int64_t kMaxFilesPerSnapshot = 200'000;
constexpr int64_t kMaxBytesPerSnapshot = 2'000'000'000;
constexpr int kTooBig = -4242;  // the callback's stops: libgit2 returns them as they are
constexpr int kCancelled = -4243;

struct Filter {
  std::string folder;
  int64_t maxFileBytes;
  std::string skipped;  // Lathe's own state folder, when it is inside `folder` (relative, with '/')
  int64_t files = 0;    // taken in by the snapshot under way
  int64_t bytes = 0;
  const CancelToken* cancel = nullptr;  // the snapshot under way's
};

// add_all/update_all ask per path to be added or updated: 0 takes it, 1
// leaves it out, kTooBig or kCancelled stops the snapshot. Left out: folders (a nested
// repository, not the folder's own files), files past the size limit and
// Lathe's own state. Paths that are gone are taken, so their entries go.
int keepPath(const char* path, const char*, void* payload) {
  auto& filter = *static_cast<Filter*>(payload);
  if (filter.cancel && filter.cancel->cancelled()) return kCancelled;
  if (!filter.skipped.empty() && std::string_view(path).starts_with(filter.skipped)) return 1;
  struct stat st {};
  if (::lstat((filter.folder + "/" + path).c_str(), &st) != 0) return 0;
  if (S_ISDIR(st.st_mode)) return 1;
  if (S_ISREG(st.st_mode) && st.st_size > filter.maxFileBytes) return 1;
  filter.bytes += st.st_size;
  return ++filter.files > kMaxFilesPerSnapshot || filter.bytes > kMaxBytesPerSnapshot ? kTooBig : 0;
}

}  // namespace

struct ShadowRepo::Impl {
  git_repository* repo = nullptr;
  std::string gitDir;
  Filter filter;
  std::unique_ptr<ChangeWatch> watch;  // started before the first snapshot walks the folder
  std::string lastTree;                // the last snapshot, while the watch sees nothing new
  ~Impl() {
    watch.reset();
    if (repo) git_repository_free(repo);
  }

  // Folders the snapshots leave out: .git, nested repositories, Lathe's state, what git ignores.
  bool leftOut(const std::string& relative) const {
    const std::string name = std::filesystem::path(relative).filename().string();
    if (name == ".git" || (!filter.skipped.empty() && (relative + "/").starts_with(filter.skipped))) return true;
    if (::access((filter.folder + "/" + relative + "/.git").c_str(), F_OK) == 0) return true;
    int ignored = 0;
    return git_ignore_path_is_ignored(&ignored, repo, (relative + "/").c_str()) == 0 && ignored;
  }
  // Brings one path the watch named into the index as it is on disk.
  int apply(git_index* index, const std::string& relative);
};

int ShadowRepo::Impl::apply(git_index* index, const std::string& relative) {
  struct stat st {};
  if (::lstat((filter.folder + "/" + relative).c_str(), &st) != 0) {
    (void)git_index_remove_bypath(index, relative.c_str());
    return git_index_remove_directory(index, relative.c_str(), 0);
  }
  if (S_ISDIR(st.st_mode)) {
    if (leftOut(relative)) return 0;
    std::string path = relative;
    char* patterns[] = {path.data()};
    git_strarray spec{patterns, 1};
    int error = git_index_update_all(index, &spec, keepPath, &filter);
    return error ? error : git_index_add_all(index, &spec, GIT_INDEX_ADD_DISABLE_PATHSPEC_MATCH, keepPath, &filter);
  }
  if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) return 0;
  if (S_ISREG(st.st_mode) && st.st_size > filter.maxFileBytes) return 0;
  int ignored = 0;
  if (git_ignore_path_is_ignored(&ignored, repo, relative.c_str()) == 0 && ignored &&
      !git_index_get_bypath(index, relative.c_str(), 0)) {
    return 0;  // as git: an ignored file is kept only once it is tracked
  }
  return git_index_add_bypath(index, relative.c_str());
}

ShadowRepo::ShadowRepo(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ShadowRepo::~ShadowRepo() = default;

Result<std::unique_ptr<ShadowRepo>> ShadowRepo::open(const std::string& gitDir, const std::string& folder,
                                                    int64_t maxFileBytes, bool watched) {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); });
  auto impl = std::make_unique<Impl>();
  impl->gitDir = gitDir;
  impl->filter = Filter{folder, maxFileBytes, "", 0, 0, nullptr};
  // The store sits in Lathe's state folder (<state>/snapshots/<repo>): never part of a snapshot.
  const auto state = std::filesystem::path(gitDir).parent_path().parent_path().lexically_normal().string();
  if (state.size() > folder.size() && state.compare(0, folder.size(), folder) == 0 && state[folder.size()] == '/') {
    impl->filter.skipped = state.substr(folder.size() + 1) + "/";
  }
  if (git_repository_open_bare(&impl->repo, gitDir.c_str()) != 0) {
    git_repository_init_options options = GIT_REPOSITORY_INIT_OPTIONS_INIT;
    options.flags = GIT_REPOSITORY_INIT_BARE | GIT_REPOSITORY_INIT_MKPATH;
    if (git_repository_init_ext(&impl->repo, gitDir.c_str(), &options) != 0) {
      return gitError("cannot create the snapshot repository " + gitDir);
    }
    Owned<git_config, git_config_free> config;
    // Files are kept byte for byte: no line-ending conversion.
    if (git_repository_config(&config.p, impl->repo) != 0 || git_config_set_bool(config.p, "core.autocrlf", 0) != 0) {
      return gitError("cannot configure the snapshot repository " + gitDir);
    }
  }
  if (git_repository_set_workdir(impl->repo, folder.c_str(), 0) != 0) {
    return gitError("cannot point the snapshot repository at " + folder);
  }
  // Loose objects at zlib's fastest level: the first snapshot copies the whole folder.
  Owned<git_odb, git_odb_free> odb;
  git_odb_backend* loose = nullptr;
  if (git_odb_new(&odb.p) != 0 || git_odb_backend_loose(&loose, (gitDir + "/objects").c_str(), 1, 0, 0, 0) != 0 ||
      git_odb_add_backend(odb.p, loose, 1) != 0 || git_repository_set_odb(impl->repo, odb.p) != 0) {
    return gitError("cannot open the objects of " + gitDir);
  }
  Impl* raw = impl.get();  // the watch is the Impl's: it never outlives it
  if (watched) impl->watch = ChangeWatch::start(folder, [raw](const std::string& relative, bool) { return raw->leftOut(relative); });
  return std::unique_ptr<ShadowRepo>(new ShadowRepo(std::move(impl)));
}

const std::string& ShadowRepo::folder() const { return impl_->filter.folder; }

Result<std::string> ShadowRepo::snapshot(const CancelToken& cancel) {
  ChangeWatch::Seen seen = impl_->watch ? impl_->watch->drain() : ChangeWatch::Seen{{}, true};
  if (!seen.everything && seen.paths.empty() && !impl_->lastTree.empty()) return impl_->lastTree;
  LockFile lock(impl_->gitDir + "/lathe.lock");
  if (!lock.held()) return makeError(Errc::io, "cannot lock the snapshot repository " + impl_->gitDir);
  Owned<git_index, git_index_free> index;
  if (git_repository_index(&index.p, impl_->repo) != 0) return gitError("cannot open the snapshot index");
  if (git_index_read(index.p, 0) != 0) return gitError("cannot read the snapshot index");
  impl_->filter.files = impl_->filter.bytes = 0;
  impl_->filter.cancel = &cancel;
  int updated = 0;
  if (seen.everything || impl_->lastTree.empty()) {
    char all[] = "*";
    char* patterns[] = {all};
    git_strarray spec{patterns, 1};
    // Tracked files first (changed ones hashed, gone ones dropped), then the
    // new ones: the other way round, entries just added look racily clean
    // to the update and every file would be hashed twice.
    updated = git_index_update_all(index.p, &spec, keepPath, &impl_->filter);
    if (updated == 0) updated = git_index_add_all(index.p, &spec, GIT_INDEX_ADD_DEFAULT, keepPath, &impl_->filter);
  } else {
    for (const auto& path : seen.paths) {
      if ((updated = impl_->apply(index.p, path)) != 0) break;
    }
  }
  impl_->filter.cancel = nullptr;
  if (updated == kCancelled) return makeError(Errc::cancelled, "the snapshot of " + impl_->filter.folder + " was cancelled");
  if (updated == kTooBig) {
    return makeError(Errc::io, impl_->filter.folder + " holds more than " + std::to_string(kMaxFilesPerSnapshot) +
                                   " files or 2 GB that git does not ignore: Lathe keeps no snapshot of it");
  }
  if (updated != 0) return gitError("cannot take a snapshot of " + impl_->filter.folder);
  git_oid tree;
  if (git_index_write(index.p) != 0 || git_index_write_tree(&tree, index.p) != 0) {
    return gitError("cannot write a snapshot of " + impl_->filter.folder);
  }
  impl_->lastTree = hex(tree);
  return impl_->lastTree;
}

Result<std::vector<ShadowRepo::Change>> ShadowRepo::changes(const std::string& fromTree, const std::string& toTree) {
  git_oid from, to;
  if (!parse(fromTree, from) || !parse(toTree, to)) return makeError(Errc::invalid_params, "not a snapshot id");
  Owned<git_tree, git_tree_free> a, b;
  if (git_tree_lookup(&a.p, impl_->repo, &from) != 0 || git_tree_lookup(&b.p, impl_->repo, &to) != 0) {
    return gitError("a snapshot is missing");
  }
  Owned<git_diff, git_diff_free> diff;
  if (git_diff_tree_to_tree(&diff.p, impl_->repo, a.p, b.p, nullptr) != 0) return gitError("cannot compare snapshots");
  std::vector<Change> out;
  for (size_t i = 0, n = git_diff_num_deltas(diff.p); i < n; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff.p, i);
    auto kept = [](const git_diff_file& file) {
      return (file.flags & GIT_DIFF_FLAG_EXISTS) && (file.mode == GIT_FILEMODE_BLOB || file.mode == GIT_FILEMODE_BLOB_EXECUTABLE);
    };
    Change change;
    const char* path = delta->new_file.path ? delta->new_file.path : delta->old_file.path;
    change.path = impl_->filter.folder + "/" + path;
    if (kept(delta->old_file)) change.before = hex(delta->old_file.id);
    if (kept(delta->new_file)) change.after = hex(delta->new_file.id);
    if (change.before != change.after) out.push_back(std::move(change));
  }
  return out;
}

Result<std::string> ShadowRepo::put(std::string_view bytes) {
  git_oid oid;
  if (git_blob_create_from_buffer(&oid, impl_->repo, bytes.data(), bytes.size()) != 0) return gitError("cannot keep a file");
  return hex(oid);
}

Result<std::string> ShadowRepo::read(const std::string& blob) {
  git_oid oid;
  Owned<git_blob, git_blob_free> found;
  if (!parse(blob, oid) || git_blob_lookup(&found.p, impl_->repo, &oid) != 0) return gitError("a kept file is missing");
  return std::string(static_cast<const char*>(git_blob_rawcontent(found.p)), static_cast<size_t>(git_blob_rawsize(found.p)));
}

bool ShadowRepo::binary(const std::string& blob) {
  git_oid oid;
  Owned<git_blob, git_blob_free> found;
  return parse(blob, oid) && git_blob_lookup(&found.p, impl_->repo, &oid) == 0 && git_blob_is_binary(found.p);
}

int64_t ShadowRepo::size(const std::string& blob) {
  git_oid oid;
  Owned<git_blob, git_blob_free> found;
  if (!parse(blob, oid) || git_blob_lookup(&found.p, impl_->repo, &oid) != 0) return -1;
  return static_cast<int64_t>(git_blob_rawsize(found.p));
}

std::string shadowRepoDir(const std::string& base, const std::string& folder) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a: stable across builds
  for (unsigned char c : folder) hash = (hash ^ c) * 1099511628211ull;
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return base + "/" + std::filesystem::path(folder).filename().string() + "-" + text + ".git";
}

}  // namespace lathe::tools
