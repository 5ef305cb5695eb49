// Finding the skills of one folder as Gemini CLI does: its own SKILL.md and
// the SKILL.md of each folder directly inside it (links to folders
// followed, hidden folders, node_modules and .git skipped). A file that
// cannot be used is a problem naming it; the others still load. Reads the
// disk; any thread.
#pragma once

#include <string>
#include <vector>

#include "tools/skills/skill.h"

namespace lathe::tools {

struct SkillScan {
  std::vector<Skill> skills;          // by path
  std::vector<std::string> problems;  // "file: problem"
};

// Nothing (and no problem) when `dir` is not a folder.
SkillScan loadSkillsFromDir(const std::string& dir);

}  // namespace lathe::tools
