// An agent skill as Gemini CLI reads it: a folder holding SKILL.md, whose
// YAML frontmatter gives its name and description and whose body is the
// instructions the model gets when the skill is activated; the other files
// of the folder are its resources. Reading one file is pure apart from the
// read; any thread.
#pragma once

#include <string>
#include <string_view>

#include "protocol/base/result.h"

namespace lathe::tools {

struct Skill {
  std::string name;         // from the frontmatter, with : \ / < > * ? " | made '-' (as Gemini CLI does)
  std::string description;  // shown to the model up front
  std::string location;     // the SKILL.md file, absolute
  std::string body;         // the instructions, trimmed
  std::string extension;    // the extension that brought it; empty for the person's or the workspace's
  bool disabled = false;    // settings skills.disabled names it

  // The skill's folder: where its resources are.
  std::string folder() const { return location.substr(0, location.find_last_of('/')); }
};

// Reads SKILL.md text. Gemini CLI's YAML first; when that fails or gives no
// text name and description, its line-by-line fallback (a description with
// a colon in it is not valid YAML, and Gemini CLI reads it anyway). An
// error names the file and what is missing.
Result<Skill> parseSkill(std::string_view text, const std::string& path);

// Reads and parses the file at `path` (absolute).
Result<Skill> readSkillFile(const std::string& path);

}  // namespace lathe::tools
