// Reading a workspace's program settings.
#include "engine/config/workspace_programs.h"

#include <filesystem>

#include "engine/config/program_settings_decode.h"
#include "engine/config/settings.h"

namespace lathe::engine {

Result<std::optional<WorkspacePrograms>> readWorkspacePrograms(const std::string& root,
                                                               const std::string& userSettingsPath,
                                                               const EnvLookup& env) {
  std::string path = root + "/.gemini/settings.json";
  std::error_code ec;
  if (!userSettingsPath.empty() && std::filesystem::equivalent(path, userSettingsPath, ec)) {
    return std::optional<WorkspacePrograms>{};
  }
  auto doc = readSettingsDocument(path);
  if (!doc) return doc.error();
  if (!*doc) return std::optional<WorkspacePrograms>{};
  WorkspacePrograms found;
  found.settingsPath = path;
  found.text = programSettingsText(**doc);
  if (const json::Value* hooks = json::find(**doc, "hooks")) {
    found.hooks = decodeHooks(*hooks, HookSource{HookOrigin::workspace, path, ""});
    // Only a file with hooks has this line: consents given before hooks were read still hold.
    if (!found.hooks.definitions.empty()) {
      found.text += (found.text.empty() ? "" : "\n") + std::string("{\"hooks\":") + json::stringify(*hooks) + "}";
    }
  }
  if (found.text.empty() && found.hooks.problems.empty()) return std::optional<WorkspacePrograms>{};
  auto reader = json::Reader::root(**doc, path);
  decodeProgramSettings(reader, tools::mcp::ServerConfig::Origin::workspaceSettings, env, found.programs);
  if (!reader.ok()) return reader.error();
  return std::optional<WorkspacePrograms>(std::move(found));
}

void addWideningSettings(WorkspacePrograms& programs, const std::string& wideningText) {
  if (wideningText.empty()) return;
  programs.widening = wideningText;
  programs.text += (programs.text.empty() ? "" : "\n") + wideningText;
}

void addWorkspaceAgents(WorkspacePrograms& programs, std::vector<WorkspaceAgent> agents) {
  for (auto& agent : agents) {
    programs.text += (programs.text.empty() ? "" : "\n") + ("agent " + agent.path + "\n" + agent.text);
    programs.agents.push_back(std::move(agent));
  }
}

void addWorkspaceSkills(WorkspacePrograms& programs, std::vector<WorkspaceSkill> skills) {
  for (auto& skill : skills) {
    programs.text += (programs.text.empty() ? "" : "\n") + ("skill " + skill.path + "\n" + skill.text);
    programs.skills.push_back(std::move(skill));
  }
}

void addWideningPolicies(WorkspacePrograms& programs, const std::string& policyText, std::string shown) {
  if (policyText.empty()) return;
  programs.policies = std::move(shown);
  programs.text += (programs.text.empty() ? "" : "\n") + policyText;
}

}  // namespace lathe::engine
