// A session's skills: precedence, lookup, activation.
#include "tools/skills/skill_set.h"

#include <algorithm>

#include "protocol/base/text.h"

namespace lathe::tools {

FoundSkills mergeSkillTiers(std::vector<std::vector<Skill>> tiers, const std::vector<std::string>& disabled) {
  FoundSkills out;
  for (auto& tier : tiers) {
    for (auto& skill : tier) {
      auto same = std::find_if(out.skills.begin(), out.skills.end(), [&](const Skill& s) { return s.name == skill.name; });
      if (same == out.skills.end()) {
        out.skills.push_back(std::move(skill));
        continue;
      }
      if (same->location != skill.location) {
        out.problems.push_back("the skill \"" + skill.name + "\" of " + skill.location + " replaces the one of " +
                               same->location);
      }
      *same = std::move(skill);  // keeps its place, as Gemini CLI's map does
    }
  }
  for (auto& skill : out.skills) {
    skill.disabled = std::any_of(disabled.begin(), disabled.end(),
                                 [&](const std::string& name) { return text::lower(name) == text::lower(skill.name); });
  }
  return out;
}

void SkillSet::assign(std::vector<Skill> skills) {
  std::lock_guard lock(mutex_);
  skills_ = std::move(skills);
}

std::vector<Skill> SkillSet::all() const {
  std::lock_guard lock(mutex_);
  return skills_;
}

std::vector<Skill> SkillSet::enabled() const {
  std::lock_guard lock(mutex_);
  std::vector<Skill> out;
  for (const auto& skill : skills_) {
    if (!skill.disabled) out.push_back(skill);
  }
  return out;
}

std::optional<Skill> SkillSet::find(const std::string& name) const {
  const std::string wanted = text::lower(name);
  std::lock_guard lock(mutex_);
  for (const auto& skill : skills_) {
    if (!skill.disabled && text::lower(skill.name) == wanted) return skill;
  }
  return std::nullopt;
}

void SkillSet::markActive(const std::string& name) {
  std::lock_guard lock(mutex_);
  active_.insert(name);
}

bool SkillSet::active(const std::string& name) const {
  std::lock_guard lock(mutex_);
  return active_.contains(name);
}

}  // namespace lathe::tools
