// Scanning a skills folder.
#include "tools/skills/skill_loader.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

namespace lathe::tools {
namespace {

bool isFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

SkillScan loadSkillsFromDir(const std::string& dir) {
  SkillScan scan;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return scan;
  std::vector<std::string> files;
  if (isFile(dir + "/SKILL.md")) files.push_back(dir + "/SKILL.md");
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with(".") || name == "node_modules") continue;
    const std::string file = it->path().string() + "/SKILL.md";
    if (it->is_directory(ec) && isFile(file)) files.push_back(file);
  }
  if (ec) scan.problems.push_back(dir + ": cannot be read: " + ec.message());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    if (auto skill = readSkillFile(file)) {
      scan.skills.push_back(std::move(skill).value());
    } else {
      scan.problems.push_back(skill.error().message);
    }
  }
  return scan;
}

}  // namespace lathe::tools
