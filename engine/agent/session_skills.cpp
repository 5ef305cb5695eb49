// Finding a session's skills, the workspace's under its consent.
#include "engine/agent/session_skills.h"

#include <filesystem>

#include "tools/skills/skill_loader.h"

namespace lathe::engine {
namespace {

// What the model reads of a skill: its name and description up front, its body when activated.
std::string modelText(const tools::Skill& skill) {
  return skill.name + "\n" + skill.description + "\n" + skill.body;
}

}  // namespace

SessionSkills::SessionSkills(std::string root, const AgentConfig& config, std::vector<Extension> extensions)
    : root_(std::move(root)), extensions_(std::move(extensions)) {
  if (!config.skillsEnabled) return;
  for (const auto& folder : workspaceFolders(config)) {
    for (const auto& skill : tools::loadSkillsFromDir(folder).skills) {
      workspace_.push_back({skill.name, skill.location, modelText(skill)});
    }
  }
}

std::vector<std::string> SessionSkills::workspaceFolders(const AgentConfig& config) const {
  std::error_code ec;
  const bool atHome = !config.homeDir.empty() && std::filesystem::equivalent(root_, config.homeDir, ec);
  if (atHome || !config.readWorkspacePrograms) return {};
  return {root_ + "/.gemini/skills", root_ + "/.agents/skills"};
}

std::vector<WorkspaceSkill> SessionSkills::awaitingConsent() const { return workspace_; }

void SessionSkills::settleConsent(bool allowed) {
  std::lock_guard lock(mutex_);
  consent_ = allowed ? Consent::allowed : Consent::refused;
}

tools::FoundSkills SessionSkills::find(const AgentConfig& config) const {
  if (!config.skillsEnabled) return {};
  std::vector<std::vector<tools::Skill>> tiers;
  std::vector<std::string> problems;
  std::vector<tools::Skill> fromExtensions;
  for (const auto& ext : extensions_) {
    if (ext.enabled) fromExtensions.insert(fromExtensions.end(), ext.skills.begin(), ext.skills.end());
  }
  tiers.push_back(std::move(fromExtensions));
  auto scan = [&](const std::string& folder) {
    tools::SkillScan found = tools::loadSkillsFromDir(folder);
    problems.insert(problems.end(), found.problems.begin(), found.problems.end());
    return std::move(found.skills);
  };
  if (!config.homeDir.empty()) {
    for (const char* folder : {"/.gemini/skills", "/.agents/skills"}) tiers.push_back(scan(config.homeDir + folder));
  }
  std::lock_guard lock(mutex_);
  for (const auto& folder : workspaceFolders(config)) {
    std::vector<tools::Skill> agreed;
    for (auto& skill : scan(folder)) {
      bool asked = false;
      for (const auto& shown : workspace_) asked |= shown.path == skill.location && shown.text == modelText(skill);
      if (consent_ == Consent::allowed && asked) {
        agreed.push_back(std::move(skill));
      } else if (consent_ == Consent::allowed) {
        problems.push_back(skill.location + ": left out: this workspace skill is new or changed since you allowed the "
                           "workspace's configuration; a new session asks you about it");
      }
    }
    tiers.push_back(std::move(agreed));
  }
  tools::FoundSkills out = tools::mergeSkillTiers(std::move(tiers), config.disabledSkills);
  out.problems.insert(out.problems.begin(), problems.begin(), problems.end());
  return out;
}

}  // namespace lathe::engine
