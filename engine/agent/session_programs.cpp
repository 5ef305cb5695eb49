// Starting a session's settings-defined programs.
#include "engine/agent/session_programs.h"

#include "engine/session/notice_card.h"

#include "engine/agent/workspace_consent.h"
#include "protocol/base/log.h"
#include "protocol/base/text.h"
#include "tools/discovery/discovered_tool.h"

namespace lathe::engine {

SessionPrograms::SessionPrograms(Setup setup, const AgentConfig& config, EditorClient& editor,
                                 tools::ToolRegistry& registry)
    : setup_(std::move(setup)), config_(config), editor_(editor), registry_(registry) {}

// A card of its own, not the agent's answer: headless prints those on
// stderr, so a script reading the answer on stdout never sees it.
void SessionPrograms::tell(const std::string& title, const std::string& message, acp::NoticeSeverity severity) {
  log(LogLevel::info, message);
  showNotice(editor_, setup_.sessionId, acp::Notice{severity, title, message});
}

std::optional<TurnStop> SessionPrograms::onPrompt(const std::vector<Part>&, History&, const CancelToken& cancel) {
  if (started_) return std::nullopt;
  for (const auto& [title, text] : setup_.notices) tell(title, text);
  setup_.notices.clear();
  bool cancelled = false;
  const bool workspaceAllowed = setup_.workspace && consent(cancel, cancelled);
  // Cancelled: the turn ends as cancelled (the loop sees the token); ask again next turn.
  if (cancelled) return std::nullopt;
  start(workspaceAllowed, cancel);
  started_ = true;
  return std::nullopt;
}

// Settles the workspace's consent (asking when no answer counts yet) and
// tells the person what came of it.
bool SessionPrograms::consent(const CancelToken& cancel, bool& cancelled) {
  const WorkspacePrograms& workspace = *setup_.workspace;
  const FolderTrustVerdict& trust = setup_.trust;
  if (!trust.problem.empty()) tell("Gemini CLI's trusted folders not read", trust.problem);
  ConsentQuestion question{setup_.sessionId, setup_.workspaceRoot, &workspace, config_.trustWorkspace, trust.trust};
  ConsentOutcome outcome = askWorkspaceConsent(editor_, *setup_.consent, question, cancel);
  if (outcome == ConsentOutcome::cancelled) {
    cancelled = true;
    return false;
  }
  const bool allowed = outcome == ConsentOutcome::allowed;
  for (const auto& settle : setup_.settle) settle(allowed);
  if (!allowed && !workspace.agents.empty()) {
    std::vector<std::string> names;
    for (const auto& agent : workspace.agents) names.push_back(agent.name);
    tell("Workspace sub-agents not available", "The sub-agents " + text::join(names, ", ") + " from this workspace's .gemini/agents "
         "can run programs, and permission was not given for this workspace, so they cannot be started.");
  }
  if (!allowed && !workspace.skills.empty()) {
    std::vector<std::string> names;
    for (const auto& skill : workspace.skills) names.push_back(skill.name);
    tell("Workspace skills not used", "The agent skills " + text::join(names, ", ") + " from this workspace were not given "
         "to the model: permission was not given for this workspace.");
  }
  if (!config_.trustWorkspace && trust.trust != FolderTrust::unknown) {
    tell(allowed ? "Workspace trusted in Gemini CLI" : "Workspace distrusted in Gemini CLI",
         std::string(allowed ? "Lathe applied " : "Lathe did not apply ") + workspace.settingsPath +
             " without asking: " + trust.why + ".",
         allowed ? acp::NoticeSeverity::info : acp::NoticeSeverity::warning);
  }
  if (allowed && setup_.grantWidening) {
    if (std::string later = setup_.grantWidening(); !later.empty()) {
      tell("Some workspace settings apply later", later, acp::NoticeSeverity::info);
    }
  }
  if (!allowed && !setup_.ignoredNotice.empty()) tell("Workspace settings ignored", setup_.ignoredNotice);
  if (!allowed && workspace.startsPrograms()) {
    tell("Workspace programs not started", "Lathe did not start the programs defined in " + workspace.settingsPath +
         " (MCP servers, tool discovery, hooks): permission was not given for this workspace. "
         "The session goes on without them. (Headless: `lathe run --trust-workspace` allows them.)");
  }
  return allowed;
}

void SessionPrograms::start(bool workspaceAllowed, const CancelToken& cancel) {
  const ProgramSettings* workspace = workspaceAllowed ? &setup_.workspace->programs : nullptr;
  discover(config_.programs, workspace, cancel);
  if (!workspace) return;
  if (!setup_.workspace->hooks.definitions.empty() && setup_.startHooks) setup_.startHooks(std::move(setup_.workspace->hooks));
  // Consent covers the servers' `trust` too (it is in the consented text).
  auto servers = mcpServersFromSettings(ProgramSettings{}, workspace, config_.mcpAllowed, config_.mcpExcluded,
                                        /*keepWorkspaceTrust=*/true);
  if (servers.empty()) return;
  if (setup_.startMcpServers) {
    setup_.startMcpServers(std::move(servers));
  } else {
    log(LogLevel::warn, "the workspace's settings define MCP servers; this build has no MCP client to start them");
  }
}

void SessionPrograms::discover(const ProgramSettings& user, const ProgramSettings* workspace,
                               const CancelToken& cancel) {
  // The workspace's file comes after the user's: its commands win, field by field.
  std::optional<std::string> discovery = workspace && workspace->discoveryCommand ? workspace->discoveryCommand
                                                                                    : user.discoveryCommand;
  std::optional<std::string> call = workspace && workspace->callCommand ? workspace->callCommand : user.callCommand;
  if (!discovery || discovery->empty()) return;
  if (!call || call->empty()) {
    tell("Tool discovery skipped", "Settings set tools.discoveryCommand but not tools.callCommand: discovered tools could not be called, so "
         "none were added.");
    return;
  }
  tools::discovery::DiscoveryOptions options;
  options.discoveryCommand = *discovery;
  options.callCommand = *call;
  options.cwd = setup_.workspaceRoot;
  auto found = tools::discovery::discoverTools(options, cancel);
  if (!found) {
    if (found.error().code != Errc::cancelled) tell("Tool discovery failed", found.error().message + "\nNo discovered tools were added.");
    return;
  }
  std::string refused;
  for (auto& tool : *found) {
    std::string name = tool->name();
    auto added = registry_.add(std::move(tool), {tools::ToolSource::Group::discovered, "", ""});
    if (!added) refused += "\n- " + name + ": " + added.error().message;
  }
  if (!refused.empty()) tell("Some discovered tools were not added", "Some discovered tools were not added:" + refused);
}

}  // namespace lathe::engine
