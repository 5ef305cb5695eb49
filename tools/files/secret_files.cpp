// Recognising secret-shaped files by name. Pure; any thread.
#include "tools/files/secret_files.h"
#include "protocol/base/text.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace lathe::tools {
namespace {

enum class Match { name, suffix, prefix, pathSuffix };

struct Shape {
  std::string_view text;
  Match match;
  std::string_view why;
};

constexpr std::array<Shape, 30> kShapes{{
    {".env", Match::name, "an environment file"},
    {".env.", Match::prefix, "an environment file"},
    {".env-", Match::prefix, "an environment file"},
    {".env", Match::suffix, "an environment file"},
    {".envrc", Match::name, "an environment file"},
    {".pem", Match::suffix, "a key or certificate file"},
    {".key", Match::suffix, "a private key file"},
    {".ppk", Match::suffix, "a private key file"},
    {".p12", Match::suffix, "a key store"},
    {".pfx", Match::suffix, "a key store"},
    {".jks", Match::suffix, "a key store"},
    {".keystore", Match::suffix, "a key store"},
    {".kdbx", Match::suffix, "a password database"},
    {"id_rsa", Match::prefix, "an SSH private key"},
    {"id_dsa", Match::prefix, "an SSH private key"},
    {"id_ecdsa", Match::prefix, "an SSH private key"},
    {"id_ed25519", Match::prefix, "an SSH private key"},
    {".netrc", Match::name, "a credential store"},
    {".pgpass", Match::name, "a credential store"},
    {".git-credentials", Match::name, "a credential store"},
    {".npmrc", Match::name, "a registry configuration that may hold tokens"},
    {".pypirc", Match::name, "a registry configuration that may hold tokens"},
    {"credentials", Match::name, "a credential store"},
    {"credentials.json", Match::name, "a credential store"},
    {"application_default_credentials.json", Match::name, "a credential store"},
    {".htpasswd", Match::name, "a password file"},
    {".tfvars", Match::suffix, "a Terraform variables file"},
    {"terraform.tfstate", Match::name, "a Terraform state file"},
    {"/.docker/config.json", Match::pathSuffix, "a registry credential store"},
    {"/.kube/config", Match::pathSuffix, "a cluster credential store"},
}};

// Named like secrets, but what is committed next to the real file: no secret.
constexpr std::array<std::string_view, 6> kHarmless{".example", ".sample", ".template", ".dist", ".defaults", ".pub"};

constexpr std::array<std::string_view, 4> kSecretsFiles{"secrets.json", "secrets.yaml", "secrets.yml", "secrets.toml"};

bool matches(const Shape& shape, std::string_view name, std::string_view path) {
  switch (shape.match) {
    case Match::name: return name == shape.text;
    case Match::suffix: return name.size() > shape.text.size() && name.ends_with(shape.text);
    case Match::prefix: return name.starts_with(shape.text);
    case Match::pathSuffix: {
      if (!shape.text.ends_with("/" + std::string(name))) return false;  // the name first: it is cheap
      const size_t keep = std::min(path.size(), shape.text.size());
      return text::lower(path.substr(path.size() - keep)) == shape.text;
    }
  }
  return false;
}

}  // namespace

std::string secretFileReason(const std::string& path) {
  // Called for every file a search walks: only the name (and, for the two
  // path shapes, the path's last few characters) is lowered.
  const size_t slash = path.find_last_of('/');
  const std::string lowered = text::lower(std::string_view(path).substr(slash == std::string::npos ? 0 : slash));
  std::string_view name(lowered);
  if (!name.empty() && name.front() == '/') name.remove_prefix(1);
  if (std::any_of(kHarmless.begin(), kHarmless.end(), [&](std::string_view t) { return name.ends_with(t); })) return "";
  const std::string shown = path.substr(path.find_last_of('/') + 1);
  if (std::find(kSecretsFiles.begin(), kSecretsFiles.end(), name) != kSecretsFiles.end()) {
    return "a secrets file (" + shown + ")";
  }
  for (const auto& shape : kShapes) {
    if (matches(shape, name, path)) return std::string(shape.why) + " (" + shown + ")";
  }
  return "";
}

namespace {

constexpr int kScanDepth = 4;
constexpr size_t kScanEntries = 20'000;
constexpr std::array<std::string_view, 12> kSkippedDirs{"node_modules", ".git",   "build",      "dist",
                                                        "target",       "vendor", ".venv",      "venv",
                                                        "__pycache__",  ".cache", ".next",      "bower_components"};

void scan(const std::string& dir, int depth, size_t& budget, std::vector<std::string>& found) {
  DIR* handle = ::opendir(dir.c_str());
  if (!handle) return;
  std::vector<std::string> below;
  while (const dirent* entry = ::readdir(handle)) {
    if (budget == 0) break;
    --budget;
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    const std::string path = dir + "/" + name;
    bool isDir = entry->d_type == DT_DIR;
    if (entry->d_type == DT_UNKNOWN) {
      struct stat st {};
      isDir = ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    }
    if (isDir) {
      if (std::find(kSkippedDirs.begin(), kSkippedDirs.end(), name) == kSkippedDirs.end()) below.push_back(path);
    } else if (!secretFileReason(path).empty()) {
      found.push_back(path);
    }
  }
  ::closedir(handle);
  if (depth < kScanDepth) {
    for (const auto& sub : below) scan(sub, depth + 1, budget, found);
  }
}

}  // namespace

std::vector<std::string> secretFilesUnder(const std::vector<std::string>& roots) {
  std::vector<std::string> found;
  size_t budget = kScanEntries;
  for (const auto& root : roots) {
    struct stat st {};
    if (::stat((root + "/.git/config").c_str(), &st) == 0 && S_ISREG(st.st_mode)) found.push_back(root + "/.git/config");
    scan(root, 0, budget, found);
  }
  return found;
}

}  // namespace lathe::tools
