// The sensitive-path table. Pure; any thread.
#include "tools/files/sensitive_paths.h"

#include <string_view>
#include <vector>

namespace lathe::tools {
namespace {

std::vector<std::string_view> segments(std::string_view rel) {
  std::vector<std::string_view> out;
  while (!rel.empty()) {
    size_t slash = rel.find('/');
    out.push_back(rel.substr(0, slash));
    if (slash == std::string_view::npos) break;
    rel.remove_prefix(slash + 1);
  }
  return out;
}

}  // namespace

std::string sensitiveEditReason(const Workspace& workspace, const std::string& path) {
  std::string rel = workspace.relative(path);
  std::vector<std::string_view> parts = segments(rel);
  if (parts.empty()) return {};
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (parts[i] == ".git") return "it is inside .git/ (repository configuration and hooks run code)";
    if (parts[i] == ".gemini") return "it is inside .gemini/ (settings that start programs and allow tools)";
    if (parts[i] == ".husky" || parts[i] == ".githooks") return "it is a git hook folder (hooks run code)";
  }
  std::string_view name = parts.back();
  for (std::string_view config : {".gitconfig", ".gitattributes", ".gitmodules", ".ripgreprc", ".rgrc", ".bashrc",
                                  ".bash_profile", ".profile", ".zshrc", ".envrc", ".npmrc", ".yarnrc", ".editorconfig",
                                  ".lesskey", ".inputrc", "GEMINI.md"}) {
    if (name == config) return std::string("it is ") + std::string(name) + ", which changes how tools run";
  }
  if (name == ".git") return "it is .git (a file naming the repository)";
  return {};
}

}  // namespace lathe::tools
