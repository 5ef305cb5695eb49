// Path confinement to the workspace roots.
#include "tools/core/workspace.h"

#include <sys/stat.h>

#include <filesystem>
#include <system_error>

namespace lathe::tools {
namespace fs = std::filesystem;

namespace {

// Resolves an absolute path component by component, following every symlink,
// dangling ones included (std::filesystem::weakly_canonical keeps a dangling
// link's name, which would let a write follow it out of the workspace). The
// part past the first missing component is taken lexically.
Result<fs::path> resolvePhysical(const fs::path& absolute) {
  std::vector<std::string> pending;  // components still to walk, last on top
  for (const auto& part : absolute.relative_path()) pending.insert(pending.begin(), part.string());
  fs::path current = "/";
  bool missing = false;
  int links = 0;
  while (!pending.empty()) {
    std::string part = std::move(pending.back());
    pending.pop_back();
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      current = current.parent_path();
      // Climbing out of a missing folder can land on an existing one again:
      // from there on, links must be followed once more.
      struct stat parent {};
      missing = ::lstat(current.c_str(), &parent) != 0;
      continue;
    }
    fs::path next = current / part;
    struct stat st {};
    if (!missing && ::lstat(next.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
      if (++links > 40) return makeError(Errc::io, "too many symbolic links in " + absolute.string());
      std::error_code ec;
      fs::path target = fs::read_symlink(next, ec);
      if (ec) return makeError(Errc::io, "cannot read link " + next.string() + ": " + ec.message());
      if (target.is_absolute()) current = "/";
      std::vector<std::string> parts;
      for (const auto& t : target.relative_path()) parts.push_back(t.string());
      for (auto it = parts.rbegin(); it != parts.rend(); ++it) pending.push_back(*it);
      continue;
    }
    if (!missing && ::lstat(next.c_str(), &st) != 0) missing = true;
    current = std::move(next);
  }
  return current;
}

bool isWithin(const std::string& path, const std::string& root) {
  if (path.size() < root.size() || path.compare(0, root.size(), root) != 0) return false;
  return path.size() == root.size() || path[root.size()] == '/' || root == "/";
}
}  // namespace

Result<Workspace> Workspace::create(const std::string& cwd, const std::vector<std::string>& additionalRoots) {
  Workspace ws;
  std::vector<std::string> all{cwd};
  all.insert(all.end(), additionalRoots.begin(), additionalRoots.end());
  for (const auto& root : all) {
    fs::path p(root);
    if (!p.is_absolute()) return makeError(Errc::invalid_params, "workspace root \"" + root + "\" is not an absolute path");
    std::error_code ec;
    fs::path canonical = fs::canonical(p, ec);
    if (ec) return makeError(Errc::invalid_params, "workspace root \"" + root + "\" does not exist");
    if (!fs::is_directory(canonical, ec)) {
      return makeError(Errc::invalid_params, "workspace root \"" + root + "\" is not a directory");
    }
    ws.roots_.push_back(canonical.string());
  }
  return ws;
}

bool Workspace::contains(const std::string& canonicalPath) const {
  for (const auto& root : roots_) {
    if (isWithin(canonicalPath, root)) return true;
  }
  return false;
}

Result<std::string> Workspace::resolve(std::string_view path) const {
  if (path.empty()) return makeError(Errc::invalid_params, "path must not be empty");
  if (path.find('\0') != std::string_view::npos) return makeError(Errc::invalid_params, "path contains a NUL byte");
  fs::path p(path);
  if (p.is_relative()) p = fs::path(cwd()) / p;
  auto resolved = resolvePhysical(p);
  if (!resolved) return resolved.error();
  std::string result = resolved->string();
  if (result.size() > 1 && result.back() == '/') result.pop_back();
  if (!contains(result)) {
    std::string list;
    for (const auto& root : roots_) list += (list.empty() ? "" : ", ") + root;
    return makeError(Errc::forbidden,
                     "path \"" + std::string(path) + "\" resolves outside the workspace (" + list + ")");
  }
  return result;
}

std::string Workspace::relative(const std::string& absolutePath) const {
  for (const auto& root : roots_) {
    if (absolutePath == root) return ".";
    if (isWithin(absolutePath, root)) return absolutePath.substr(root.size() + (root == "/" ? 0 : 1));
  }
  return absolutePath;
}

}  // namespace lathe::tools
