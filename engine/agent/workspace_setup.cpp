// A session's workspace settings, read and sorted when it is assembled.
#include "engine/agent/workspace_setup.h"

#include "engine/agent/session_options.h"
#include "engine/config/workspace_settings.h"

namespace lathe::engine {

WorkspaceSetup workspaceSetupFor(const std::string& root, const AgentConfig& user, ConsentStore& consent) {
  WorkspaceSetup out;
  std::string broken;
  std::optional<WorkspaceSettings> settings;
  if (user.readWorkspacePrograms) {
    auto read = readWorkspaceSettings(root, user.userSettingsPath);
    auto programs = read ? readWorkspacePrograms(root, user.userSettingsPath)
                         : Result<std::optional<WorkspacePrograms>>(read.error());
    if (!programs) {
      broken = programs.error().message;
    } else {
      settings = std::move(read).value();
      out.programs = std::move(programs).value();
    }
  }
  if (out.programs) {
    // Told whatever the answer: a definition left out must not go unnoticed.
    for (auto& problem : out.programs->hooks.problems) out.notices.emplace_back("Some hooks were not read", problem);
    out.programs->hooks.problems.clear();
  }
  if (!broken.empty()) {
    // A broken file is ignored as a whole: nothing of it is half applied.
    out.notices.emplace_back("Workspace settings not read",
                             "Lathe could not use this workspace's settings and goes on with yours: " + broken);
  }
  if (!settings) {
    out.config = std::make_shared<const AgentConfig>(user);
    return out;
  }
  if (!settings->processKeys.empty()) {
    std::string keys;
    for (const auto& key : settings->processKeys) keys += (keys.empty() ? "" : ", ") + key;
    out.notices.emplace_back("Workspace settings ignored", "Lathe ignored " + keys + " in " + settings->path +
                                                               ": only your own settings choose the provider, the models offered and the context file names.");
  }
  if (!settings->wideningText.empty()) {
    if (!out.programs) {
      out.programs.emplace();
      out.programs->settingsPath = settings->path;
    }
    addWideningSettings(*out.programs, settings->wideningText);
  }
  if (out.programs && out.programs->text.empty()) out.programs.reset();  // only problems: nothing to ask
  if (out.programs) out.trust = geminiFolderTrust(root);
  bool widen = !settings->wideningKeys.empty() &&
               (user.trustWorkspace || out.trust.trust == FolderTrust::trusted ||
                (out.trust.trust == FolderTrust::unknown && consent.lookup(root, out.programs->text) == Consent::allowed));
  auto config = sessionConfigFor(user, *settings, widen);
  if (!config) {
    out.notices.emplace_back("Workspace settings not read",
                             "Lathe could not use this workspace's settings and goes on with yours: " + config.error().message);
    out.config = std::make_shared<const AgentConfig>(user);
    out.programs.reset();
    return out;
  }
  out.config = std::make_shared<const AgentConfig>(std::move(config).value());
  if (!settings->wideningKeys.empty() && !widen) {
    out.ignoredNotice = ignoredNotice(*settings);
    auto widened = sessionConfigFor(user, *settings, true);
    if (widened) out.widened = std::make_shared<const AgentConfig>(std::move(widened).value());
    out.wideningKeys = settings->wideningKeys;
  }
  return out;
}

// Keys the settings table marks for the next session (the sandbox, set up
// with the session) wait for it (an "always" answer makes them apply then).
std::string grantWidening(Session& session, EditorClient& editor, const AgentConfig& widened,
                          const std::vector<std::string>& keys) {
  session.grantApprovals(configuredApprovals(widened.allowedTools, widened.excludeTools,
                                             unaskedMcpServers(widened.programs, widened.mcpAllowed)));
  if (widened.approvalMode != session.config().approvalMode && session.mode() == session.config().approvalMode) {
    changeMode(session, editor, widened.approvalMode);
  }
  return laterWideningNotice(keys);
}

}  // namespace lathe::engine
