// The skills of one session, found where Gemini CLI 0.61 finds them, in its
// order of precedence (lowest first): extensions' (each enabled one's
// skills/ folder), the person's (~/.gemini/skills, then ~/.agents/skills),
// the workspace's (.gemini/skills, then .agents/skills). A later skill of
// the same name replaces an earlier one, and the person is told. Lathe
// ships no built-in skills. The set is read by the system prompt, the
// activate_skill tool and /skills; /skills reload replaces it. Thread-safe.
#pragma once

#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tools/skills/skill.h"

namespace lathe::tools {

struct FoundSkills {
  std::vector<Skill> skills;          // in the order first found; disabled ones marked
  std::vector<std::string> problems;  // files that could not be used, and conflicts
};

// Merges tiers, lowest precedence first; `disabled` names (any case) are marked.
FoundSkills mergeSkillTiers(std::vector<std::vector<Skill>> tiers, const std::vector<std::string>& disabled);

class SkillSet {
 public:
  void assign(std::vector<Skill> skills);
  std::vector<Skill> all() const;      // disabled ones too (for /skills)
  std::vector<Skill> enabled() const;  // what the model is told of
  // An enabled skill by name, case ignored (as Gemini CLI looks them up).
  std::optional<Skill> find(const std::string& name) const;
  // Activation is remembered for the session (listed by /skills).
  void markActive(const std::string& name);
  bool active(const std::string& name) const;

 private:
  mutable std::mutex mutex_;
  std::vector<Skill> skills_;
  std::set<std::string> active_;
};

}  // namespace lathe::tools
