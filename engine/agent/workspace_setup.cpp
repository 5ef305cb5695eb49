// A session's workspace settings and policy rules, read and sorted when it is assembled.
#include "engine/agent/workspace_setup.h"

#include "engine/agent/session_options.h"
#include "engine/config/kept_rules.h"
#include "engine/config/workspace_settings.h"

namespace lathe::engine {
namespace {

// Consent to the workspace covers its sub-agents that could run programs
// and its agent skills too.
void askAboutAgentsAndSkills(WorkspaceSetup& setup, const std::string& root, std::vector<WorkspaceAgent> agents,
                             std::vector<WorkspaceSkill> skills) {
  if (agents.empty() && skills.empty()) return;
  if (!setup.programs) {
    setup.programs.emplace();
    setup.programs->settingsPath = root + (agents.empty() ? "/.gemini/skills" : "/.gemini/agents");
  }
  addWorkspaceAgents(*setup.programs, std::move(agents));
  addWorkspaceSkills(*setup.programs, std::move(skills));
}

std::string bullets(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += "\n- " + line;
  return out;
}

// The workspace's settings file and its programs; a broken one is ignored
// as a whole (nothing of it half applied), and the person told.
std::optional<WorkspaceSettings> readSettings(const std::string& root, const AgentConfig& user, WorkspaceSetup& out) {
  if (!user.readWorkspacePrograms) return std::nullopt;
  auto read = readWorkspaceSettings(root, user.userSettingsPath);
  auto programs = read ? readWorkspacePrograms(root, user.userSettingsPath)
                       : Result<std::optional<WorkspacePrograms>>(read.error());
  if (!programs) {
    out.notices.emplace_back("Workspace settings not read",
                             "Lathe could not use this workspace's settings and goes on with yours: " + programs.error().message);
    return std::nullopt;
  }
  out.programs = std::move(programs).value();
  if (out.programs) {
    // Told whatever the answer: a definition left out must not go unnoticed.
    for (auto& problem : out.programs->hooks.problems) out.notices.emplace_back("Some hooks were not read", problem);
    out.programs->hooks.problems.clear();
  }
  std::optional<WorkspaceSettings> settings = std::move(read).value();
  if (settings && !settings->processKeys.empty()) {
    std::string keys;
    for (const auto& key : settings->processKeys) keys += (keys.empty() ? "" : ", ") + key;
    out.notices.emplace_back("Workspace settings ignored",
                             "Lathe ignored " + keys + " in " + settings->path +
                                 ": only your own settings choose the provider, the models offered, the context file "
                                 "names, where your policy files are and the sub-agents.");
  }
  return settings;
}

// The person's, the administrator's and the extensions' rules, the
// workspace's that refuse or ask, and the kept answers' store.
WorkspacePolicies readPolicies(const std::string& root, const AgentConfig& user, WorkspaceSetup& out) {
  LoadedPolicies personal = readPersonalPolicies(user.policies);
  WorkspacePolicies workspace = user.readWorkspacePrograms ? readWorkspacePolicies(root, user.policies) : WorkspacePolicies{};
  std::vector<std::string> problems = std::move(personal.problems);
  problems.insert(problems.end(), workspace.problems.begin(), workspace.problems.end());
  out.policies.push_back(std::make_shared<const PolicyRules>(std::move(personal.rules)));
  out.policies.push_back(std::make_shared<const PolicyRules>(std::move(workspace.now)));
  KeptAnswersStore::Files kept = KeptAnswersStore::filesFor(root, user.policies);
  if (!kept.workspace.empty() || !kept.everywhere.empty()) {
    out.kept = std::make_shared<KeptAnswersStore>(std::move(kept));
    for (auto& problem : out.kept->problems()) problems.push_back(std::move(problem));
  }
  if (!problems.empty()) {
    const bool unread = !out.policies[0]->unread.empty() || !out.policies[1]->unread.empty();
    out.notices.emplace_back("Policy files not used",
                             "Lathe goes on without what these policy files say:" + bullets(problems) +
                                 (unread ? "\nUntil they are fixed (read by the next session), every tool call asks first: their rules might refuse it." : ""));
  }
  return workspace;
}

// The allow rules as the person is asked about them.
std::string describeWideningRules(const PolicyRules& rules) {
  std::string out;
  for (const auto& rule : rules.rules) out += "\n  - allow " + describeRule(rule) + " (" + rule.origin.describe() + ")";
  return out;
}

}  // namespace

WorkspaceSetup workspaceSetupFor(const std::string& root, const AgentConfig& user, ConsentStore& consent,
                                 std::vector<WorkspaceAgent> agents, std::vector<WorkspaceSkill> skills) {
  WorkspaceSetup out;
  WorkspacePolicies policies = readPolicies(root, user, out);
  std::optional<WorkspaceSettings> settings = readSettings(root, user, out);
  // What the workspace's consent covers: its programs, its settings that let
  // more run unasked, its policy rules that do, its sub-agents that could
  // run programs and its agent skills.
  const bool wideningSettings = settings && !settings->wideningKeys.empty();
  const bool wideningRules = !policies.widening.rules.empty();
  if (wideningSettings || wideningRules) {
    if (!out.programs) {
      out.programs.emplace();
      out.programs->settingsPath = settings ? settings->path : policies.folder;
    }
    if (wideningSettings) addWideningSettings(*out.programs, settings->wideningText);
    if (wideningRules) addWideningPolicies(*out.programs, policies.wideningText, describeWideningRules(policies.widening));
  }
  askAboutAgentsAndSkills(out, root, std::move(agents), std::move(skills));
  if (out.programs && out.programs->text.empty()) out.programs.reset();  // only problems: nothing to ask
  if (out.programs) out.trust = geminiFolderTrust(root);
  // Gemini CLI's trust in the folder counts as consent; its distrust refuses.
  const bool widen = (wideningSettings || wideningRules) &&
                     (user.trustWorkspace || out.trust.trust == FolderTrust::trusted ||
                      (out.trust.trust == FolderTrust::unknown && consent.lookup(root, out.programs->text) == Consent::allowed));
  if (wideningRules) {
    auto rules = std::make_shared<const PolicyRules>(std::move(policies.widening));
    if (widen) {
      out.policies.push_back(std::move(rules));
    } else {
      out.wideningPolicies = std::move(rules);
      out.ignoredNotice = "Lathe did not apply the rules of " + policies.folder +
                          " that allow more to run without asking: this workspace's configuration is not allowed "
                          "(allow it when asked, or start Lathe with --trust-workspace). Its rules that refuse or ask apply.";
    }
  }
  out.config = std::make_shared<const AgentConfig>(user);
  if (!settings) return out;
  auto config = sessionConfigFor(user, *settings, wideningSettings && widen);
  if (!config) {
    out.notices.emplace_back("Workspace settings not read",
                             "Lathe could not use this workspace's settings and goes on with yours: " + config.error().message);
    out.programs.reset();
    out.wideningPolicies.reset();
    return out;
  }
  out.config = std::make_shared<const AgentConfig>(std::move(config).value());
  if (wideningSettings && !widen) {
    out.ignoredNotice = ignoredNotice(*settings) + (out.ignoredNotice.empty() ? "" : "\n" + out.ignoredNotice);
    auto widened = sessionConfigFor(user, *settings, true);
    if (widened) out.widened = std::make_shared<const AgentConfig>(std::move(widened).value());
    out.wideningKeys = settings->wideningKeys;
  }
  return out;
}

// Keys the settings table marks for the next session (the sandbox, set up
// with the session) wait for it (an "always" answer makes them apply then).
std::string grantWidening(Session& session, EditorClient& editor, const AgentConfig* widened,
                          const std::vector<std::string>& keys, std::shared_ptr<const PolicyRules> policies) {
  SessionApprovals granted;
  if (widened) {
    granted = configuredApprovals(widened->allowedTools, widened->excludeTools,
                                  unaskedMcpServers(widened->programs, widened->mcpAllowed));
  }
  if (policies) granted.policies.push_back(std::move(policies));
  session.grantApprovals(granted);
  if (widened && widened->approvalMode != session.config().approvalMode && session.mode() == session.config().approvalMode) {
    changeMode(session, editor, widened->approvalMode);
  }
  return laterWideningNotice(keys);
}

}  // namespace lathe::engine
