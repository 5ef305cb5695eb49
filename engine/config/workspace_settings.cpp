// Sorting a workspace's settings and merging them into a session's config.
#include "engine/config/workspace_settings.h"

#include <algorithm>
#include <filesystem>

#include "engine/config/context_options.h"
#include "protocol/base/json.h"

namespace lathe::engine {
namespace {

void addAll(std::vector<std::string>& into, const std::vector<std::string>& more) {
  for (const auto& name : more) {
    if (std::find(into.begin(), into.end(), name) == into.end()) into.push_back(name);
  }
}

// A later tools.core can only keep tools the earlier one kept; an empty
// meet keeps the earlier list (never "all tools", which is what empty means).
void narrowCore(std::vector<std::string>& core, const std::vector<std::string>& later) {
  if (core.empty()) {
    core = later;
    return;
  }
  std::vector<std::string> both;
  for (const auto& name : core) {
    if (std::find(later.begin(), later.end(), name) != later.end()) both.push_back(name);
  }
  if (!both.empty()) core = std::move(both);
}

void putStrings(json::Writer& w, const char* key, const std::vector<std::string>& values) {
  json::key(w, key);
  w.StartArray();
  for (const auto& value : values) json::str(w, value);
  w.EndArray();
}

std::string wideningTextOf(const Settings& widening) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    if (widening.allowedTools) putStrings(w, "tools.allowed", *widening.allowedTools);
    if (widening.approvalMode) json::put(w, "general.defaultApprovalMode", *widening.approvalMode);
    if (widening.mcpAllowed) putStrings(w, "mcp.allowed", *widening.mcpAllowed);
    if (widening.sandbox) json::put(w, "tools.sandbox", *widening.sandbox);
    if (widening.sandboxNetwork) json::put(w, "tools.sandboxNetwork", *widening.sandboxNetwork);
    w.EndObject();
  });
}

}  // namespace

Result<WorkspaceSettings> classifyWorkspaceSettings(std::string path, Settings all) {
  WorkspaceSettings out;
  out.path = std::move(path);
  Settings& widening = out.widening;
  if (all.allowedTools && !all.allowedTools->empty()) {
    widening.allowedTools = std::move(all.allowedTools);
    out.wideningKeys.push_back("tools.allowed");
  }
  all.allowedTools.reset();
  if (all.approvalMode) {
    auto mode = parseApprovalMode(*all.approvalMode);
    if (!mode) {
      return makeError(Errc::invalid_params, out.path + ".general.defaultApprovalMode: unknown approval mode \"" +
                                                 *all.approvalMode + "\" (default, autoEdit, yolo, plan)");
    }
    if (*mode != ApprovalMode::standard && *mode != ApprovalMode::plan) {
      widening.approvalMode = std::move(all.approvalMode);
      out.wideningKeys.push_back("general.defaultApprovalMode");
      all.approvalMode.reset();
    }
  }
  if (all.mcpAllowed) {
    widening.mcpAllowed = std::move(all.mcpAllowed);
    out.wideningKeys.push_back("mcp.allowed");
    all.mcpAllowed.reset();
  }
  if (all.sandbox == false) {
    widening.sandbox = false;
    out.wideningKeys.push_back("tools.sandbox");
    all.sandbox.reset();
  }
  if (all.sandboxNetwork == true) {
    widening.sandboxNetwork = true;
    out.wideningKeys.push_back("tools.sandboxNetwork");
    all.sandboxNetwork.reset();
  }
  if (all.provider) out.processKeys.push_back("model.provider");
  if (!all.modelChoices.empty()) out.processKeys.push_back("model.choices");
  if (all.contextFileNames) out.processKeys.push_back("context.fileName");
  all.provider.reset();
  all.modelChoices.clear();
  all.contextFileNames.reset();
  if (!out.wideningKeys.empty()) out.wideningText = wideningTextOf(widening);
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
  const SettingsOverrides& pinned = config.overrides;
  if (settings.model && !pinned.model) {
    config.model = *settings.model;
    // The picker shows the current model first.
    auto& choices = config.modelChoices;
    choices.erase(std::remove(choices.begin(), choices.end(), config.model), choices.end());
    choices.insert(choices.begin(), config.model);
  }
  for (const auto& [model, tokens] : settings.contextLimits) config.contextLimits[model] = tokens;
  if (settings.coreTools) narrowCore(config.coreTools, *settings.coreTools);
  if (settings.excludeTools) addAll(config.excludeTools, *settings.excludeTools);
  if (settings.allowedTools) addAll(config.allowedTools, *settings.allowedTools);
  if (settings.mcpExcluded) addAll(config.mcpExcluded, *settings.mcpExcluded);
  if (settings.mcpAllowed) config.mcpAllowed = settings.mcpAllowed;
  if (settings.approvalMode && !pinned.approvalMode) {
    auto mode = parseApprovalMode(*settings.approvalMode);
    if (!mode) return makeError(Errc::invalid_params, "unknown approval mode \"" + *settings.approvalMode + "\"");
    config.approvalMode = *mode;
  }
  if (settings.sandbox && !pinned.sandbox) config.shell.sandbox = *settings.sandbox;
  if (settings.sandboxNetwork && !pinned.sandboxNetwork) config.shell.sandboxNetwork = *settings.sandboxNetwork;
  if (settings.compressionThreshold) config.context.compressionThreshold = *settings.compressionThreshold;
  if (settings.disableLoopDetection) config.context.loopDetection = !*settings.disableLoopDetection;
  if (settings.truncateToolOutputThreshold) {
    config.context.toolOutputChars = *settings.truncateToolOutputThreshold;
    config.shell.maxOutputChars = keptCharsOf(config.context.toolOutputChars);
  }
  for (const auto& [tool, budget] : settings.summarizeToolOutput) config.context.summarizeTools[tool] = budget;
  if (settings.contextDiscoveryMaxDirs) config.memory.maxScanDirs = static_cast<size_t>(*settings.contextDiscoveryMaxDirs);
  // context.fileName comes from the process (the user's files), see the header.
  return {};
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

}  // namespace lathe::engine
