// Sorting a workspace's settings and merging them into a session's config.
#include "engine/config/workspace_settings.h"

#include <filesystem>

#include "engine/config/context_options.h"
#include "engine/config/settings_table.h"
#include "protocol/base/json.h"

namespace lathe::engine {
namespace {

std::string wideningTextOf(const Settings& widening) {
  return json::buildObject([&](json::Writer& w) {
    for (const SettingKey& row : settingsTable()) {
      if (row.scope != KeyScope::widening || !row.isSet(widening)) continue;
      json::key(w, row.name);
      row.consentText(w, widening);
    }
  });
}

}  // namespace

Result<WorkspaceSettings> classifyWorkspaceSettings(std::string path, Settings all) {
  WorkspaceSettings out;
  out.path = std::move(path);
  Settings ignored;
  for (const SettingKey& row : settingsTable()) {
    if (!row.isSet(all)) continue;
    if (row.scope == KeyScope::widening) {
      auto widens = row.widens ? row.widens(all) : Result<bool>(true);
      if (!widens) {
        return makeError(Errc::invalid_params, out.path + "." + std::string(row.name) + ": " + widens.error().message);
      }
      if (!*widens) continue;  // this value narrows or tunes
      row.take(all, out.widening);
      out.wideningKeys.emplace_back(row.name);
    } else if (row.scope == KeyScope::personal || row.scope == KeyScope::programs) {
      row.take(all, ignored);
      if (row.toldInWorkspace) out.processKeys.emplace_back(row.name);
    }
  }
  if (!out.wideningKeys.empty()) out.wideningText = wideningTextOf(out.widening);
  out.tuning = std::move(all);
  return out;
}

Result<std::optional<WorkspaceSettings>> readWorkspaceSettings(const std::string& root,
                                                               const std::string& userSettingsPath) {
  std::string path = root + "/.gemini/settings.json";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::optional<WorkspaceSettings>{};
  if (!userSettingsPath.empty() && std::filesystem::equivalent(path, userSettingsPath, ec)) {
    return std::optional<WorkspaceSettings>{};
  }
  Settings all;
  if (auto status = mergeSettingsFile(path, all, SettingsScope::workspace); !status) return status.error();
  auto sorted = classifyWorkspaceSettings(path, std::move(all));
  if (!sorted) return sorted.error();
  return std::optional<WorkspaceSettings>(std::move(sorted).value());
}

Status applySessionSettings(AgentConfig& config, const Settings& settings) {
  return applySettings(config, settings, SettingApplies::perSession);
}

Result<AgentConfig> sessionConfigFor(const AgentConfig& user, const WorkspaceSettings& workspace, bool widen) {
  AgentConfig config = user;
  if (auto status = applySessionSettings(config, workspace.tuning); !status) return status.error();
  if (widen) {
    if (auto status = applySessionSettings(config, workspace.widening); !status) return status.error();
  }
  if (user.overrides.lastFile) {
    if (auto status = applySessionSettings(config, *user.overrides.lastFile); !status) return status.error();
  }
  return config;
}

std::string ignoredNotice(const WorkspaceSettings& workspace) {
  std::string keys;
  for (const auto& key : workspace.wideningKeys) keys += (keys.empty() ? "" : ", ") + key;
  return "Lathe ignored " + keys + " in " + workspace.path +
         ": they let more run without asking, and this workspace's configuration is not allowed "
         "(allow it when asked, or start Lathe with --trust-workspace).";
}

std::string laterWideningNotice(const std::vector<std::string>& keys) {
  std::string later;
  for (const auto& key : keys) {
    const SettingKey* row = findSetting(key);
    if (row && row->grant == WideningGrant::nextSession) later += (later.empty() ? "" : ", ") + key;
  }
  if (later.empty()) return later;
  return later + " apply from the next session (the sandbox is set up when a session starts), if this configuration "
                 "is remembered as allowed.";
}

}  // namespace lathe::engine
