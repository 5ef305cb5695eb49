// Assembling a session: workspace, config, hooks, recording.
#include "engine/agent/session_factory.h"

#include <algorithm>
#include <filesystem>

#include "engine/agent/install_question.h"
#include "engine/agent/session_options.h"
#include "engine/agent/session_programs.h"
#include "engine/agent/workspace_setup.h"
#include "engine/commands/builtin_commands.h"
#include "engine/commands/custom_commands.h"
#include "engine/commands/extensions_command.h"
#include "engine/commands/permissions_command.h"
#include "engine/commands/session_commands.h"
#include "engine/commands/skill_commands.h"
#include "engine/context/context_hooks.h"
#include "engine/context/memory_command.h"
#include "engine/hooks/session_hooks.h"
#include "engine/persistence/session_meta.h"
#include "engine/rewind/rewinds.h"
#include "engine/subagents/agents_command.h"
#include "engine/subagents/complete_task.h"
#include "engine/subagents/invoke_agent.h"
#include "protocol/base/log.h"
#include "tools/mcp/acp_servers.h"

namespace lathe::engine {
namespace {

// The highest tool-call number the editor was shown ("toolCallId":"call_N").
uint64_t lastCallNumber(const std::vector<std::string>& shown) {
  constexpr std::string_view key = "\"toolCallId\":\"";
  uint64_t last = 0;
  for (const std::string& params : shown) {
    for (size_t at = params.find(key); at != std::string::npos; at = params.find(key, at)) {
      at += key.size();
      size_t end = params.find('"', at);
      if (end == std::string::npos) break;
      last = std::max(last, ToolScheduler::callNumberOf(std::string_view(params).substr(at, end - at)));
    }
  }
  return last;
}

// The editor's servers and the person's settings' servers, as settings
// permit; the editor's win a name both define.
std::vector<tools::mcp::ServerConfig> mcpServersOf(const std::vector<acp::McpServer>& fromEditor,
                                                   const std::string& cwd, const AgentConfig& config) {
  std::vector<tools::mcp::ServerConfig> servers = tools::mcp::fromAcp(fromEditor, cwd);
  std::erase_if(servers, [&](const tools::mcp::ServerConfig& server) {
    return !mcpServerPermitted(server.name, config.mcpAllowed, config.mcpExcluded);
  });
  for (auto& fromSettings : mcpServersFromSettings(config.programs, nullptr, config.mcpAllowed, config.mcpExcluded)) {
    bool named = std::any_of(servers.begin(), servers.end(),
                             [&](const tools::mcp::ServerConfig& server) { return server.name == fromSettings.name; });
    if (!named) servers.push_back(std::move(fromSettings));
  }
  return servers;
}

// The session's cost as its last context meter showed it: nothing when it
// showed none, nullopt when that meter had no cost (not known).
std::optional<std::optional<double>> lastCost(const std::vector<std::string>& shown) {
  for (auto line = shown.rbegin(); line != shown.rend(); ++line) {
    if (line->find("\"usage_update\"") == std::string::npos) continue;
    auto doc = json::parse(*line);
    const json::Value* update = doc && doc->IsObject() ? json::find(*doc, "update") : nullptr;
    if (!update || json::getStr(*update, "sessionUpdate").value_or("") != "usage_update") continue;
    const json::Value* cost = json::find(*update, "cost");
    const json::Value* amount = cost && cost->IsObject() ? json::find(*cost, "amount") : nullptr;
    return amount && amount->IsNumber() ? std::optional<double>(amount->GetDouble()) : std::nullopt;
  }
  return std::nullopt;
}

// A recorded session goes on with its history, mode, model (when still
// offered), effort and cost so far.
void restore(Session& session, persist::SessionRecorder::Opened& record) {
  session.restoreHistory(std::move(record.history), lastCallNumber(record.shown));
  if (auto mode = parseApprovalMode(record.meta.mode)) session.setMode(*mode);
  const auto& choices = session.config().modelChoices;
  const std::string& model = record.meta.model;
  if (!model.empty() && (choices.empty() || std::find(choices.begin(), choices.end(), model) != choices.end())) {
    session.setModel(model);
  }
  if (auto effort = parseEffort(record.meta.effort)) session.setEffort(*effort);
  if (auto cost = lastCost(record.shown)) session.meter().restore(*cost);
}

// The person's hooks (and extensions'), and the workspace's once agreed to;
// none when no source has any: a session without hooks pays nothing for them.
std::shared_ptr<SessionHooks> hooksFor(Session& session, const std::string& root, const WorkspaceSetup& setup,
                                       bool reopened, EditorClient& editor) {
  const AgentConfig& config = session.config();
  const bool workspaceHooks = setup.programs && !setup.programs->hooks.definitions.empty();
  if (!config.hookOptions.enabled || (config.hooks.empty() && !workspaceHooks)) return nullptr;
  return std::make_shared<SessionHooks>(SessionHooks::Setup{.sessionId = session.id(),
                                                            .workspaceRoot = root,
                                                            .plansDir = session.planMode() ? session.planMode()->directory() : "",
                                                            .hooks = config.hooks,
                                                            .options = config.hookOptions,
                                                            .reopened = reopened},
                                        editor);
}

}  // namespace

Result<std::shared_ptr<const tools::Workspace>> workspaceFor(const std::string& cwd,
                                                            const std::vector<std::string>& directories) {
  if (auto root = tools::Workspace::create(cwd); !root) {
    return makeError(Errc::invalid_params, "params.cwd: " + root.error().message);
  }
  auto workspace = tools::Workspace::create(cwd, directories);
  if (!workspace) {
    // cwd was fine, so one of the other roots is the problem: name it.
    for (size_t i = 0; i < directories.size(); ++i) {
      if (auto one = tools::Workspace::create(directories[i]); !one) {
        return makeError(Errc::invalid_params,
                         "params.additionalDirectories[" + std::to_string(i) + "]: " + one.error().message);
      }
    }
    return makeError(Errc::invalid_params, "params.additionalDirectories: " + workspace.error().message);
  }
  return std::make_shared<const tools::Workspace>(std::move(workspace).value());
}

// The person's agents (~/.gemini/agents) and the workspace's (.gemini/agents,
// unless the workspace is the home folder, whose .gemini is the person's).
AgentCatalog::Sources agentFolders(const std::string& root, const AgentConfig& config) {
  AgentCatalog::Sources sources;
  if (!config.memory.globalDir.empty()) sources.userFolder = config.memory.globalDir + "/agents";
  std::error_code ec;
  const std::string workspace = root + "/.gemini/agents";
  if (sources.userFolder.empty() || !std::filesystem::equivalent(workspace, sources.userFolder, ec)) {
    sources.workspaceFolder = workspace;
  }
  return sources;
}

void SessionFactory::addHooks(Session& session, const std::string& root, WorkspaceSetup setup, SessionAddOns addOns,
                              bool reopened, const std::shared_ptr<AgentCatalog>& agents) const {
  Session* raw = &session;  // the hooks are owned by the session: no cycle
  std::shared_ptr<SessionHooks> hooks = hooksFor(session, root, setup, reopened, editor_);
  SessionPrograms::Setup programs{
      .sessionId = session.id(),
      .workspaceRoot = root,
      .workspace = std::move(setup.programs),
      .consent = consent_,
      .startMcpServers = [raw](std::vector<tools::mcp::ServerConfig> servers) { raw->startMcpServers(std::move(servers)); },
      .startHooks = nullptr,
      .trust = std::move(setup.trust),
      .grantWidening = nullptr,
      .ignoredNotice = std::move(setup.ignoredNotice),
      .notices = std::move(setup.notices),
  };
  if (programs.workspace && !programs.workspace->agents.empty()) {
    programs.settle.push_back([agents](bool allowed) { agents->settleConsent(allowed); });
  }
  auto commands = std::make_shared<SessionCommands>(session);
  if (programs.workspace && !programs.workspace->skills.empty()) {
    programs.settle.push_back([raw, found = addOns.skills, registry = &commands->registry()](bool allowed) {
      found->settleConsent(allowed);
      if (!allowed) return;
      tools::FoundSkills skills = found->find(raw->config());
      for (const auto& problem : skills.problems) raw->notifyOnce({acp::NoticeSeverity::warning, "Skill problem", problem});
      raw->setSkills(std::move(skills.skills));
      refreshSkillCommands(*raw, *registry);
    });
  }
  if (!agents->problems().empty()) {
    std::string text = "Lathe could not use these sub-agent files:";
    for (const auto& problem : agents->problems()) text += "\n- " + problem;
    programs.notices.emplace_back("Sub-agent files not used", std::move(text));
  }
  if (hooks) programs.startHooks = [raw = hooks.get()](HookSet set) { raw->addWorkspaceHooks(std::move(set)); };
  if (setup.widened || setup.wideningPolicies) {
    programs.grantWidening = [raw, &editor = editor_, widened = setup.widened, keys = setup.wideningKeys,
                              policies = setup.wideningPolicies] {
      return grantWidening(*raw, editor, widened.get(), keys, policies);
    };
  }
  session.addHooks(std::make_shared<SessionPrograms>(std::move(programs), session.config(), editor_, session.registry()));
  if (hooks) {
    // After the programs (the workspace's hooks join once agreed to), before
    // the rest: a stop they ask for comes before compression or the request.
    session.setCallGate(hooks.get());
    session.addHooks(std::move(hooks));
  }
  // Before the slash commands: it hears the words of every prompt.
  Rewinds::add(session, commands->registry(), editor_);
  addContextHooks(session, commands->registry());
  addBuiltinCommands(session, commands->registry());
  addMemoryCommand(session, commands->registry());
  addAgentsCommand(commands->registry(), agents);
  addPermissionsCommand(session, commands->registry(), std::move(setup.kept));
  tools::FoundSkills skills = addOns.skills->find(session.config());
  for (auto& problem : skills.problems) addOns.problems.push_back({acp::NoticeSeverity::warning, "Skill problem", std::move(problem)});
  session.setSkills(std::move(skills.skills));
  session.setExtensionContext(std::move(addOns.extensionContext));
  addSkillCommands(session, commands->registry(), [raw, found = addOns.skills] { return found->find(raw->config()); });
  const AgentConfig& config = session.config();
  ExtensionsCommandSetup manage{.extensions = std::move(addOns.extensions), .store = nullptr, .home = config.homeDir,
                                .workspace = root,
                                .agree = [&editor = editor_, id = session.id()](const std::string& text, const CancelToken& cancel) {
                                  return askToInstall(editor, id, text, cancel);
                                }};
  if (!config.homeDir.empty()) {
    manage.store = std::make_shared<const ExtensionStore>(config.homeDir + "/.gemini", config.homeDir, processEnvironment(),
                                                          ExtensionFilter{config.blockGitExtensions, config.allowedExtensions});
  }
  addExtensionsCommand(commands->registry(), std::move(manage));
  auto custom = std::make_shared<CustomCommands>(session, commands->registry(), std::move(addOns.commandFolders),
                                                 std::move(addOns.problems));
  custom->load();
  custom->watch();
  session.addHooks(std::move(commands));
  session.addHooks(std::move(custom));
}

void SessionFactory::addSubagents(Session& session, std::shared_ptr<AgentCatalog> agents,
                                  std::shared_ptr<persist::SessionRecorder> recorder) const {
  if (agents->entries().empty()) return;
  Session* raw = &session;  // the tool is the session's (its registry): it never outlives it
  auto host = std::make_shared<SubagentHost>(SubagentHost{
      .parent = session,
      .catalog = agents,
      .editor = editor_,
      .record = [recorder](const std::string& id, const acp::SessionUpdate& update) {
        if (recorder) recorder->recordFor(id, update);
      },
      .running = children_,
      .makeChild = [this, raw](const ChildSpec& spec) { return assembleChild(*raw, spec); },
      .modes = std::make_shared<ChildModes>(),
  });
  session.addHooks(host->modes);
  (void)session.registry().add(makeInvokeAgentTool(host));
  session.setSubagentList([agents] {
    std::vector<std::pair<std::string, std::string>> list;
    for (const auto& agent : agents->available()) list.emplace_back(agent->name, agent->description);
    return list;
  });
}

std::shared_ptr<Session> SessionFactory::assembleChild(Session& parent, const ChildSpec& spec) const {
  const AgentDefinition& agent = *spec.agent;
  auto config = std::make_shared<AgentConfig>(parent.config());
  config->model = spec.model;
  config->approvalMode = parent.mode();
  config->maxTurnRequests = agent.maxTurns;
  config->context.titles = false;
  if (agent.temperature) config->generation[""].temperature = agent.temperature;
  InheritedParts parts{toolsFor(agent, parent.registry().entries()), parent.sharedApprovals(), parent.sharedMemory(),
                       parent.provider()};
  auto child = std::make_shared<Session>(spec.id, parent.sharedWorkspace(), std::move(config), *spec.editor,
                                         std::move(parts));
  child->setSubagent(agent.name, agent.readOnly);
  // The person's hooks judge a child's calls as they judge the parent's
  // (the parent's hooks outlive its children, which end within its turn).
  child->setCallGate(parent.callGate());
  child->setInstructions(spec.instructions);
  (void)child->registry().add(makeCompleteTaskTool(agent.report, [limits = spec.limits](std::string report) {
    limits->complete(std::move(report));
  }));
  addContextManagement(*child);
  child->addHooks(spec.limits);
  return child;
}

Result<AssembledSession> SessionFactory::assemble(SessionSpec spec) const {
  auto workspace = workspaceFor(spec.cwd, spec.additionalDirectories);
  if (!workspace) return workspace.error();
  const std::string root = (*workspace)->cwd();
  // Extensions join the person's config as their own settings would (their
  // policy rules read with the person's, their hooks run as the person's);
  // then the workspace's settings and sub-agents: all read before the session
  // exists.
  AgentConfig personal = config_;
  SessionAddOns addOns = addOnsFor(root, personal);
  auto agents = AgentCatalog::load(agentFolders(root, personal), personal.subagents);
  WorkspaceSetup setup = workspaceSetupFor(root, personal, *consent_, agents->awaitingConsent(), addOns.skills->awaitingConsent());
  AssembledSession out;
  out.session = std::make_shared<Session>(spec.id, *workspace, setup.config, editor_);
  if (const auto& plan = out.session->planMode()) {
    // enter_plan_mode and exit_plan_mode switch the mode as the editor's picker does.
    plan->setSwitch([raw = out.session.get(), &editor = editor_](const std::string& modeId) {
      if (auto mode = parseApprovalMode(modeId)) changeMode(*raw, editor, *mode);
    });
  }
  SessionApprovals rules;
  rules.policies = std::move(setup.policies);
  out.session->grantApprovals(rules);
  if (setup.kept) out.session->setKeptAnswers(setup.kept);
  addHooks(*out.session, root, std::move(setup), std::move(addOns), spec.record.has_value(), agents);
  if (spec.record) {
    restore(*out.session, *spec.record);
    out.recorder = std::move(spec.record->recorder);
    out.recorder->setWorkspace(spec.cwd, spec.additionalDirectories, persist::mcpServersJson(spec.mcpServers));
    out.shown = std::move(spec.record->shown);
  } else if (store_.enabled()) {
    persist::SessionMeta meta;
    meta.id = spec.id;
    meta.cwd = spec.cwd;
    meta.additionalDirectories = spec.additionalDirectories;
    meta.mcpServers = persist::mcpServersJson(spec.mcpServers);
    meta.mode = toString(out.session->mode());
    meta.model = out.session->chosenModel();
    if (auto recorder = persist::SessionRecorder::create(store_, std::move(meta))) {
      out.recorder = std::move(recorder).value();
    } else {
      log(LogLevel::warn, "session " + spec.id + " is not recorded: " + recorder.error().message);
    }
  }
  if (out.recorder) out.session->addHooks(out.recorder);  // last: it records what the others leave
  addSubagents(*out.session, std::move(agents), out.recorder);
  out.mcpServers = mcpServersOf(spec.mcpServers, root, out.session->config());
  return out;
}

}  // namespace lathe::engine
