// Gemini CLI's folder trust.
#include "engine/config/trusted_folders.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/config/settings.h"

namespace lathe::engine {
namespace {

namespace fs = std::filesystem;

// A path as Gemini CLI compares it: absolute, normal, its links resolved
// when it exists.
fs::path canonicalOf(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec).lexically_normal();
  if (ec) return fs::path(path).lexically_normal();
  fs::path real = fs::canonical(absolute, ec);
  return ec ? absolute : real;
}

// Whether `child` is `parent` or below it.
bool within(const fs::path& parent, const fs::path& child) {
  auto p = parent.begin();
  auto c = child.begin();
  for (; p != parent.end(); ++p, ++c) {
    if (p->empty()) continue;  // a trailing separator
    if (c == child.end() || *p != *c) return false;
  }
  return true;
}

std::optional<std::string> readFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

std::string trustedFoldersPath(const EnvLookup& env) {
  if (auto path = env("GEMINI_CLI_TRUSTED_FOLDERS_PATH"); path && !path->empty()) return *path;
  auto home = env("GEMINI_CLI_HOME");
  if (!home || home->empty()) home = env("HOME");
  return home && !home->empty() ? *home + "/.gemini/trustedFolders.json" : std::string();
}

FolderTrustVerdict geminiFolderTrust(const std::string& folder, const EnvLookup& env) {
  FolderTrustVerdict verdict;
  if (env("GEMINI_RESTRICTED_MODE") == std::optional<std::string>("true")) {
    return {FolderTrust::untrusted, "GEMINI_RESTRICTED_MODE=true", ""};
  }
  if (auto trust = env("GEMINI_CLI_TRUST_WORKSPACE"); trust == "false" || trust == "true") {
    return {*trust == "true" ? FolderTrust::trusted : FolderTrust::untrusted, "GEMINI_CLI_TRUST_WORKSPACE=" + *trust, ""};
  }
  const std::string file = trustedFoldersPath(env);
  if (file.empty()) return verdict;
  auto text = readFile(file);
  if (!text) return verdict;
  auto doc = json::parse(stripJsonComments(*text));
  if (!doc || !doc->IsObject()) {
    verdict.problem = file + ": " + (doc ? std::string("expected a JSON object of folders") : doc.error().message) +
                      "; Lathe does not count Gemini CLI's folder trust until it is fixed.";
    return verdict;
  }
  const fs::path location = canonicalOf(folder);
  size_t longest = 0;
  std::string decidingRule;
  std::string decidingLevel;
  for (const auto& member : doc->GetObject()) {
    std::string rule(member.name.GetString(), member.name.GetStringLength());
    std::string level = member.value.IsString() ? std::string(member.value.GetString(), member.value.GetStringLength()) : "";
    if (level != "TRUST_FOLDER" && level != "TRUST_PARENT" && level != "DO_NOT_TRUST") {
      verdict.problem = file + ": \"" + rule + "\": " + (level.empty() ? std::string("a trust level") : "\"" + level + "\"") +
                        " is not TRUST_FOLDER, TRUST_PARENT or DO_NOT_TRUST; Lathe does not count Gemini CLI's folder "
                        "trust until it is fixed.";
      return {FolderTrust::unknown, "", verdict.problem};
    }
    fs::path normal = fs::absolute(rule).lexically_normal();
    fs::path effective = level == "TRUST_PARENT" ? normal.parent_path() : normal;
    if (within(canonicalOf(effective.string()), location) && rule.size() > longest) {
      longest = rule.size();
      decidingRule = rule;
      decidingLevel = level;
    }
  }
  if (decidingLevel.empty()) return verdict;
  verdict.trust = decidingLevel == "DO_NOT_TRUST" ? FolderTrust::untrusted : FolderTrust::trusted;
  verdict.why = file + " marks " + decidingRule + " " + decidingLevel;
  return verdict;
}

}  // namespace lathe::engine
