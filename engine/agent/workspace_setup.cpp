// A session's workspace settings, read and sorted when it is assembled.
#include "engine/agent/workspace_setup.h"

#include "engine/agent/session_options.h"
#include "engine/config/workspace_settings.h"

namespace lathe::engine {

namespace {

// Consent to the workspace covers its sub-agents that could run programs too.
void askAboutAgents(WorkspaceSetup& setup, const std::string& root, std::vector<WorkspaceAgent> agents) {
  if (agents.empty()) return;
  if (!setup.programs) setup.programs = WorkspacePrograms{root + "/.gemini/agents", "", {}, "", {}};
  addWorkspaceAgents(*setup.programs, std::move(agents));
}

}  // namespace

WorkspaceSetup workspaceSetupFor(const std::string& root, const AgentConfig& user, ConsentStore& consent,
                                 std::vector<WorkspaceAgent> agents) {
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
  if (!broken.empty()) {
    // A broken file is ignored as a whole: nothing of it is half applied.
    out.notices.emplace_back("Workspace settings not read",
                             "Lathe could not use this workspace's settings and goes on with yours: " + broken);
  }
  if (!settings) {
    out.config = std::make_shared<const AgentConfig>(user);
    askAboutAgents(out, root, std::move(agents));
    return out;
  }
  if (!settings->processKeys.empty()) {
    std::string keys;
    for (const auto& key : settings->processKeys) keys += (keys.empty() ? "" : ", ") + key;
    out.notices.emplace_back("Workspace settings ignored",
                             "Lathe ignored " + keys + " in " + settings->path +
                                 ": only your own settings choose the provider, the models offered, the context file "
                                 "names and the sub-agents.");
  }
  if (!settings->wideningText.empty()) {
    if (!out.programs) out.programs = WorkspacePrograms{settings->path, "", {}, "", {}};
    addWideningSettings(*out.programs, settings->wideningText);
  }
  askAboutAgents(out, root, std::move(agents));
  bool widen = !settings->wideningKeys.empty() &&
               (user.trustWorkspace || consent.lookup(root, out.programs->text) == Consent::allowed);
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
