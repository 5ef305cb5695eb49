// The disk FileStore: whole-file reads and atomic writes (an unnamed file in
// the same directory, fsync, a name for an instant, rename, fsync of the
// directory), so a process killed mid-write leaves neither a torn file nor a
// temporary behind. Stateless apart from an atomic counter, so one instance
// serves every worker thread at once.
#include "tools/core/file_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

namespace lathe::tools {
namespace {
namespace fs = std::filesystem;

std::string errnoText(int err) { return std::error_code(err, std::generic_category()).message(); }

Error ioError(Errc code, const std::string& what, const std::string& path, int err) {
  return makeError(code, what + " " + path + ": " + errnoText(err));
}

Errc errcFor(int err) {
  if (err == ENOENT) return Errc::not_found;
  if (err == EACCES || err == EPERM || err == EROFS) return Errc::forbidden;
  return Errc::io;
}

// Closes a descriptor on scope exit unless released.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      if (fd_ >= 0) ::close(fd_);
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  int get() const { return fd_; }
  // Closes now and reports the error close() gave (a late write error on NFS).
  int close() {
    int rc = ::close(fd_);
    fd_ = -1;
    return rc == 0 ? 0 : errno;
  }

 private:
  int fd_;
};

int writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return 0;
}

// A name for the temporary file beside the target: hidden, recognisable, with
// the writer's pid (so a later write can tell a leftover of a killed process),
// and short enough for NAME_MAX even when the target's own name is at the limit.
std::string tempPrefix(const std::string& base) { return "." + base.substr(0, 200) + ".lathe-"; }

std::string tempName(const std::string& base, uint64_t salt) {
  static std::atomic<uint64_t> counter{0};
  uint64_t unique = salt ^ (counter.fetch_add(1) * 0x9E3779B97F4A7C15ull) ^
                    static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  char suffix[48];
  std::snprintf(suffix, sizeof suffix, "%d-%08llx.tmp", static_cast<int>(::getpid()),
                static_cast<unsigned long long>(unique & 0xffffffffull));
  return tempPrefix(base) + suffix;
}

// Removes this target's temporaries left by writers that died (kill -9 between
// creating and renaming): their pid is gone. Works in the open folder `dirFd`.
void removeStaleTemporaries(int dirFd, const std::string& base) {
  const std::string prefix = tempPrefix(base);
  int listFd = ::openat(dirFd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (listFd < 0) return;
  DIR* dir = ::fdopendir(listFd);
  if (!dir) {
    ::close(listFd);
    return;
  }
  std::vector<std::string> stale;
  while (struct dirent* entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (name.rfind(prefix, 0) != 0 || name.size() < 4 || name.compare(name.size() - 4, 4, ".tmp") != 0) continue;
    int pid = std::atoi(name.c_str() + prefix.size());
    if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH) stale.push_back(std::move(name));
  }
  ::closedir(dir);
  for (const auto& name : stale) ::unlinkat(dirFd, name.c_str(), 0);
}

// An unnamed file in dir (O_TMPFILE): a process killed while writing it leaves
// nothing behind. -1 where the filesystem has no O_TMPFILE.
int openUnnamed(int dirFd) {
#ifdef O_TMPFILE
  return ::openat(dirFd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
#else
  (void)dirFd;
  return -1;
#endif
}

// Gives an unnamed file a name in the folder `dirFd` (a temporary one,
// renamed over the target next).
bool linkUnnamed(int fd, int dirFd, const std::string& name) {
  std::string self = "/proc/self/fd/" + std::to_string(fd);
  if (::linkat(AT_FDCWD, self.c_str(), dirFd, name.c_str(), AT_SYMLINK_FOLLOW) == 0) return true;
  // Without /proc, the direct form (it needs CAP_DAC_READ_SEARCH).
  return errno != EEXIST && ::linkat(fd, "", dirFd, name.c_str(), AT_EMPTY_PATH) == 0;
}

class DiskFileStore final : public FileStore {
 public:
  Result<std::string> readText(const std::string& path, const CancelToken& cancel) override {
    if (cancel.cancelled()) return makeError(Errc::cancelled, "cancelled");
    struct stat before {};
    if (::stat(path.c_str(), &before) == 0 && !S_ISREG(before.st_mode) && !S_ISDIR(before.st_mode)) {
      // Sockets cannot even be opened; FIFOs and devices must not be read.
      return makeError(Errc::invalid_params, path + " is " + describeFileType(before.st_mode) +
                                                 ", not a regular file: it cannot be read as text");
    }
    // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
    if (fd.get() < 0) {
      int err = errno;
      if (err == ENOENT) return makeError(Errc::not_found, "file not found: " + path);
      return ioError(errcFor(err), "cannot open", path, err);
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return ioError(Errc::io, "cannot stat", path, errno);
    if (S_ISDIR(st.st_mode)) return makeError(Errc::invalid_params, path + " is a directory, not a text file");
    if (!S_ISREG(st.st_mode)) return makeError(Errc::invalid_params, path + " is " + describeFileType(st.st_mode) +
                                                                   ", not a regular file: it cannot be read as text");
    ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
    std::string text;
    // One spare byte, so the read that sees the end needs no reallocation.
    text.resize(static_cast<size_t>(st.st_size) + 1);
    size_t used = 0;
    for (;;) {
      if (used == text.size()) text.resize(text.size() + 64 * 1024);  // the file grew, or st_size was 0
      ssize_t n = ::read(fd.get(), text.data() + used, text.size() - used);
      if (n < 0) {
        if (errno == EINTR) continue;
        return ioError(Errc::io, "cannot read", path, errno);
      }
      if (n == 0) break;
      used += static_cast<size_t>(n);
    }
    text.resize(used);
    return text;
  }

  Status writeText(const std::string& requested, const std::string& content, const CancelToken& cancel) override {
    if (cancel.cancelled()) return makeError(Errc::cancelled, "cancelled");
    if (requested.empty() || requested.front() != '/') {
      return makeError(Errc::invalid_params, "path must be absolute: " + requested);
    }
    std::error_code ec;
    // Write through a symlink to the file it names, never replacing the link.
    fs::path target(requested);
    if (fs::is_symlink(target, ec)) {
      fs::path real = fs::weakly_canonical(target, ec);
      if (ec) return makeError(Errc::io, "cannot resolve link " + requested + ": " + ec.message());
      target = real;
    }
    const std::string dir = target.parent_path().string();
    if (!fs::exists(dir, ec)) {
      fs::create_directories(dir, ec);
      if (ec) return makeError(errcFor(ec.value()), "cannot create directory " + dir + ": " + ec.message());
    }
    Fd dirFd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dirFd.get() < 0) return ioError(errcFor(errno), "cannot open", dir, errno);
    return writeIn(dirFd.get(), dir, target.filename().string(), content, cancel);
  }

  Status writeTextExact(const std::string& path, const std::string& content, const CancelToken& cancel) override {
    if (cancel.cancelled()) return makeError(Errc::cancelled, "cancelled");
    if (path.empty() || path.front() != '/') return makeError(Errc::invalid_params, "path must be absolute: " + path);
    const fs::path target(path);
    auto dirFd = openBeneathRoot(target.parent_path());
    if (!dirFd) return dirFd.error();
    return writeIn(dirFd->get(), target.parent_path().string(), target.filename().string(), content, cancel);
  }

 private:
  // The folder, opened one component at a time from "/" without following
  // a symbolic link anywhere (missing folders are created on the way): once
  // open, swapping a folder for a link cannot move where the write lands.
  static Result<Fd> openBeneathRoot(const fs::path& dir) {
    Fd current(::open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (current.get() < 0) return ioError(errcFor(errno), "cannot open", "/", errno);
    std::string walked;
    for (const auto& part : dir.relative_path()) {
      const std::string name = part.string();
      if (name.empty() || name == ".") continue;
      walked += "/" + name;
      if (name == "..") return makeError(Errc::invalid_params, "the path " + dir.string() + " goes up with \"..\"");
      int next = ::openat(current.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (next < 0 && errno == ENOENT && ::mkdirat(current.get(), name.c_str(), 0777) == 0) {
        next = ::openat(current.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      }
      if (next < 0) {
        int err = errno;
        if (err == ELOOP || err == ENOTDIR) {
          return makeError(Errc::forbidden, walked + " is not a folder but a symbolic link or a file; nothing was "
                                                     "written (links are not followed when editing)");
        }
        return ioError(errcFor(err), "cannot open", walked, err);
      }
      current = Fd(next);
    }
    return current;
  }

  // Replaces (or creates) `base` in the folder open as `dirFd` with `content`:
  // a fresh file in that folder, synced, then renamed over the name. The name
  // itself is never followed: a symbolic link standing there is refused, and
  // one swapped in at the last instant is replaced, never written through.
  static Status writeIn(int dirFd, const std::string& dir, const std::string& base, const std::string& content,
                        const CancelToken& cancel) {
    const std::string path = dir + "/" + base;
    struct stat existing {};
    const bool exists = ::fstatat(dirFd, base.c_str(), &existing, AT_SYMLINK_NOFOLLOW) == 0;
    if (!exists && errno != ENOENT) return ioError(errcFor(errno), "cannot stat", path, errno);
    if (exists && S_ISDIR(existing.st_mode)) return makeError(Errc::invalid_params, path + " is a directory");
    if (exists && !S_ISREG(existing.st_mode)) {
      return makeError(Errc::invalid_params,
                       path + " is " + describeFileType(existing.st_mode) + ", not a regular file: it cannot be written");
    }
    if (exists && ::faccessat(dirFd, base.c_str(), W_OK, 0) != 0) return ioError(Errc::forbidden, "cannot write", path, errno);

    // A fresh file: unnamed until it is complete where the filesystem allows,
    // else an exclusive temporary name. 0644 minus umask for a new file (the
    // kernel applies the umask), the original's bits for an existing one.
    removeStaleTemporaries(dirFd, base);
    std::string temp;
    int raw = openUnnamed(dirFd);
    const bool unnamed = raw >= 0;
    for (uint64_t attempt = 0; attempt < 64 && raw < 0; ++attempt) {
      temp = tempName(base, attempt);
      raw = ::openat(dirFd, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
      if (raw < 0 && errno != EEXIST) return ioError(errcFor(errno), "cannot create a temporary file in", dir, errno);
    }
    if (raw < 0) return makeError(Errc::io, "cannot find a free temporary file name in " + dir);
    Fd fd(raw);

    auto fail = [&](Error error) -> Status {
      if (!temp.empty()) ::unlinkat(dirFd, temp.c_str(), 0);
      return error;
    };
    if (exists) {
      // Owner first: chown clears set-id bits, the chmod after puts them back.
      if (::fchown(fd.get(), existing.st_uid, existing.st_gid) != 0) {
        // Keeping the owner needs privileges we may not have; content and mode matter more.
      }
      if (::fchmod(fd.get(), existing.st_mode & 07777) != 0) {
        return fail(ioError(Errc::io, "cannot set the mode of the new", path, errno));
      }
    }
    if (int err = writeAll(fd.get(), content)) return fail(ioError(errcFor(err), "cannot write", path, err));
    if (::fsync(fd.get()) != 0) return fail(ioError(Errc::io, "cannot sync", path, errno));
    if (cancel.cancelled()) return fail(makeError(Errc::cancelled, "cancelled"));
    if (unnamed) {
      // Named only now, for the instant before the rename.
      for (uint64_t attempt = 0; temp.empty() && attempt < 64; ++attempt) {
        std::string name = tempName(base, attempt);
        if (linkUnnamed(fd.get(), dirFd, name)) temp = name;
        else if (errno != EEXIST) return ioError(errcFor(errno), "cannot link the new file into", dir, errno);
      }
      if (temp.empty()) return makeError(Errc::io, "cannot find a free temporary file name in " + dir);
    }
    if (int err = fd.close()) return fail(ioError(Errc::io, "cannot close", path, err));
    if (::renameat(dirFd, temp.c_str(), dirFd, base.c_str()) != 0) {
      return fail(ioError(errcFor(errno), "cannot replace", path, errno));
    }
    // Best effort: the rename already happened; some filesystems refuse
    // fsync on a directory (EINVAL) and the new content is in place either way.
    ::fsync(dirFd);
    return {};
  }
};

}  // namespace

std::string describeFileType(unsigned mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

std::shared_ptr<FileStore> makeDiskFileStore() { return std::make_shared<DiskFileStore>(); }

}  // namespace lathe::tools
