// Path confinement to the workspace roots.
#include "tools/workspace.h"

#include <filesystem>
#include <system_error>

namespace lathe::tools {
namespace fs = std::filesystem;

namespace {
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
  std::error_code ec;
  // weakly_canonical follows symlinks through the existing prefix and
  // normalises the rest, so "a/../../x" and links out are both caught below.
  fs::path resolved = fs::weakly_canonical(p, ec);
  if (ec) return makeError(Errc::io, "cannot resolve path \"" + std::string(path) + "\": " + ec.message());
  std::string result = resolved.string();
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
