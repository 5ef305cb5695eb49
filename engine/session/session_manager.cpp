// Session bookkeeping and turn threads.
#include "engine/session/session_manager.h"

#include <malloc.h>

#include <algorithm>
#include <random>

#include "engine/commands/builtin_commands.h"
#include "engine/config/workspace_settings.h"
#include "engine/context/context_hooks.h"
#include "engine/context/memory_command.h"
#include "engine/session/session_programs.h"
#include "tools/mcp/acp_servers.h"
#include "engine/persistence/session_meta.h"
#include "protocol/base/log.h"

namespace lathe::engine {
namespace {

std::string randomId() {
  std::random_device device;
  std::uniform_int_distribution<int> nibble(0, 15);
  std::string id = "sess_";
  for (int i = 0; i < 24; ++i) id += "0123456789abcdef"[nibble(device)];
  return id;
}

// What a replay shows where the editor, seeing the stop reason, marked the
// end of a turn itself; nothing for a turn that ended normally.
std::string replayNoteFor(const Result<acp::StopReason>& result) {
  if (!result) return "\n\n*The turn failed: " + result.error().message + "*\n";
  switch (*result) {
    case acp::StopReason::end_turn: return "";
    case acp::StopReason::cancelled: return "\n\n*Cancelled.*\n";
    default: return std::string("\n\n*The turn ended: ") + acp::toString(*result) + ".*\n";
  }
}

}  // namespace

SessionManager::SessionManager(AgentConfig config, EditorClient& editor)
    : config_(std::move(config)),
      editor_(editor),
      consent_(std::make_shared<ConsentStore>(config_.stateDir)),
      store_(config_.dataDir) {}

SessionManager::~SessionManager() { shutdown(); }

Result<std::shared_ptr<const tools::Workspace>> SessionManager::workspaceFor(
    const std::string& cwd, const std::vector<std::string>& directories) {
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

// The session's own config: the user's with its workspace's settings merged
// in (the widening ones only when consent is on record or --trust-workspace);
// what the workspace would start, for the first turn; and what to tell.
SessionManager::WorkspaceSetup SessionManager::workspaceSetupFor(const std::string& root) const {
  WorkspaceSetup out;
  std::string broken;
  std::optional<WorkspaceSettings> settings;
  if (config_.readWorkspacePrograms) {
    auto read = readWorkspaceSettings(root, config_.userSettingsPath);
    auto programs = read ? readWorkspacePrograms(root, config_.userSettingsPath)
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
    out.config = std::make_shared<const AgentConfig>(config_);
    return out;
  }
  if (!settings->processKeys.empty()) {
    std::string keys;
    for (const auto& key : settings->processKeys) keys += (keys.empty() ? "" : ", ") + key;
    out.notices.emplace_back("Workspace settings ignored", "Lathe ignored " + keys + " in " + settings->path +
                                                               ": only your own settings choose the provider, the models offered and the context file names.");
  }
  if (!settings->wideningText.empty()) {
    if (!out.programs) out.programs = WorkspacePrograms{settings->path, "", {}, ""};
    addWideningSettings(*out.programs, settings->wideningText);
  }
  bool widen = !settings->wideningKeys.empty() &&
               (config_.trustWorkspace || consent_->lookup(root, out.programs->text) == Consent::allowed);
  auto config = sessionConfigFor(config_, *settings, widen);
  if (!config) {
    out.notices.emplace_back("Workspace settings not read",
                             "Lathe could not use this workspace's settings and goes on with yours: " + config.error().message);
    out.config = std::make_shared<const AgentConfig>(config_);
    out.programs.reset();
    return out;
  }
  out.config = std::make_shared<const AgentConfig>(std::move(config).value());
  if (!settings->wideningKeys.empty() && !widen) {
    out.ignoredNotice = ignoredNotice(*settings);
    auto widened = sessionConfigFor(config_, *settings, true);
    if (widened) out.widened = std::make_shared<const AgentConfig>(std::move(widened).value());
    out.wideningKeys = settings->wideningKeys;
  }
  return out;
}

// Consent given at the first turn: the widened config's approvals and mode
// apply from now on; keys the table marks for the next session (the sandbox,
// set up with the session) wait for it (an "always" answer makes them apply then).
std::string SessionManager::grantWidening(Session& session, const AgentConfig& widened,
                                          const std::vector<std::string>& keys) {
  session.grantApprovals(configuredApprovals(widened.allowedTools, widened.excludeTools,
                                             unaskedMcpServers(widened.programs, widened.mcpAllowed)));
  if (widened.approvalMode != session.config().approvalMode && session.mode() == session.config().approvalMode) {
    if (auto status = setMode(session.id(), toString(widened.approvalMode)); !status) session.setMode(widened.approvalMode);
  }
  return laterWideningNotice(keys);
}

Result<std::shared_ptr<Session>> SessionManager::assemble(const std::string& id,
                                                          std::shared_ptr<const tools::Workspace> workspace) {
  WorkspaceSetup setup = workspaceSetupFor(workspace->cwd());
  auto session = std::make_shared<Session>(id, workspace, setup.config, editor_);
  Session* raw = session.get();  // the hooks are owned by the session: no cycle
  SessionPrograms::Setup programs{id, workspace->cwd(), std::move(setup.programs), consent_,
                                  [raw](std::vector<tools::mcp::ServerConfig> servers) {
                                    raw->startMcpServers(std::move(servers));
                                  }};
  if (setup.widened) {
    programs.grantWidening = [this, raw, widened = setup.widened, keys = setup.wideningKeys] {
      return grantWidening(*raw, *widened, keys);
    };
  }
  programs.ignoredNotice = std::move(setup.ignoredNotice);
  programs.notices = std::move(setup.notices);
  session->addHooks(std::make_shared<SessionPrograms>(std::move(programs), session->config(), editor_, session->registry()));
  addContextHooks(*session);
  addBuiltinCommands(*session);
  addMemoryCommand(*session);
  return session;
}

Result<std::string> SessionManager::newSession(const acp::NewSessionRequest& request) {
  auto workspace = workspaceFor(request.cwd, request.additionalDirectories);
  if (!workspace) return workspace.error();
  std::string id = randomId();
  auto session = assemble(id, *workspace);
  if (!session) return session.error();
  Entry entry;
  entry.session = *session;
  // The recorder comes last: it records the history the other hooks leave.
  if (store_.enabled()) entry.recorder = persist::recorderFor(store_, **session, request);
  if (entry.recorder) entry.session->addHooks(entry.recorder);
  {
    std::lock_guard lock(mutex_);
    if (shuttingDown_) return makeError(Errc::internal, "the agent is shutting down");
    reapRetired();
    sessions_.emplace(id, std::move(entry));
  }
  (*session)->startMcpServers(mcpServersOf(request.mcpServers, (*workspace)->cwd(), (*session)->config()));
  return id;
}

// The editor's servers and the user's settings' servers, as settings permit;
// the editor's win a name both define.
std::vector<tools::mcp::ServerConfig> SessionManager::mcpServersOf(const std::vector<acp::McpServer>& fromEditor,
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

Status SessionManager::startMcpServers(const std::string& sessionId, std::vector<tools::mcp::ServerConfig> servers) {
  auto session = find(sessionId);
  if (!session) return session.error();
  (*session)->startMcpServers(std::move(servers));
  return {};
}

Status SessionManager::startPrompt(const acp::PromptRequest& request, TurnDone done) {
  std::unique_lock lock(mutex_);
  if (shuttingDown_) return makeError(Errc::internal, "the agent is shutting down");
  auto it = sessions_.find(request.sessionId);
  if (it == sessions_.end()) {
    return makeError(Errc::not_found, "params.sessionId: no session \"" + request.sessionId + "\"");
  }
  Entry& entry = it->second;
  if (entry.busy) {
    return makeError(Errc::invalid_request, "session " + request.sessionId + " is already running a prompt turn");
  }
  std::thread previous = std::move(entry.turn);  // finished (not busy): joined below, unlocked
  entry.busy = true;
  entry.turnToken = CancelToken::create();
  entry.turnEnded = std::make_shared<std::atomic<bool>>(false);
  try {
    entry.turn = std::thread([this, session = entry.session, token = entry.turnToken, blocks = request.prompt,
                              ended = entry.turnEnded, recorder = entry.recorder, done = std::move(done)] {
      Result<acp::StopReason> result = makeError(Errc::internal, "the turn ended unexpectedly");
      try {
        result = session->prompt(blocks, token);
      } catch (const std::exception& e) {
        result = makeError(Errc::internal, std::string("internal error during the turn: ") + e.what());
      }
      if (recorder) recorder->turnEnded(session->history(), replayNoteFor(result));
      bool idle;
      {
        std::lock_guard inner(mutex_);
        if (auto own = sessions_.find(session->id()); own != sessions_.end()) own->second.busy = false;
        idle = std::none_of(sessions_.begin(), sessions_.end(), [](const auto& e) { return e.second.busy; });
      }
      done(std::move(result));
      // The last turn of a burst hands its threads' heap arenas back to the system.
      if (idle) ::malloc_trim(0);
      *ended = true;
    });
  } catch (const std::system_error& e) {
    entry.busy = false;
    lock.unlock();
    if (previous.joinable()) previous.join();
    return makeError(Errc::internal, std::string("cannot start the turn: ") + e.what());
  }
  lock.unlock();
  if (previous.joinable()) previous.join();
  return {};
}

std::vector<acp::SessionMode> SessionManager::availableModes() {
  return {
      {"default", "Default", "Ask before edits, commands and other changes"},
      {"autoEdit", "Auto edit", "Allow edits inside the workspace; still ask before commands"},
      {"yolo", "YOLO", "Allow every tool call without asking"},
      {"plan", "Plan", "Read-only: tools that change things are refused"},
  };
}

Result<std::shared_ptr<Session>> SessionManager::find(const std::string& sessionId) {
  std::lock_guard lock(mutex_);
  auto it = sessions_.find(sessionId);
  if (it == sessions_.end()) return makeError(Errc::not_found, "params.sessionId: no session \"" + sessionId + "\"");
  return it->second.session;
}

std::shared_ptr<persist::SessionRecorder> SessionManager::recorderOf(const std::string& sessionId) const {
  std::lock_guard lock(mutex_);
  auto it = sessions_.find(sessionId);
  return it == sessions_.end() ? nullptr : it->second.recorder;
}

Status SessionManager::announceCommands(const std::string& sessionId) {
  auto session = find(sessionId);
  if (!session) return session.error();
  (*session)->commands().announce();
  return {};
}

Status SessionManager::setMode(const std::string& sessionId, const std::string& modeId) {
  auto mode = parseApprovalMode(modeId);
  if (!mode) return makeError(Errc::invalid_params, "params.modeId: unknown mode \"" + modeId + "\"");
  auto session = find(sessionId);
  if (!session) return session.error();
  (*session)->setMode(*mode);
  if (auto recorder = recorderOf(sessionId)) recorder->setMode(toString(*mode));
  editor_.sendUpdate(sessionId, acp::CurrentModeUpdate{toString(*mode)});
  editor_.sendUpdate(sessionId, acp::ConfigOptionUpdate{optionsOf(**session)});
  return {};
}

std::vector<acp::ConfigOption> SessionManager::optionsOf(const Session& session) const {
  acp::ConfigOption model{"model", "Model", "The model that answers the next prompt", "model", session.model(), {}};
  for (const auto& name : session.config().modelChoices) model.choices.push_back({name, name, {}});
  if (model.choices.empty()) model.choices.push_back({session.model(), session.model(), {}});
  acp::ConfigOption mode{"mode", "Mode", "What may run without asking", "mode", toString(session.mode()), {}};
  for (const auto& m : availableModes()) mode.choices.push_back({m.id, m.name, m.description});
  return {std::move(model), std::move(mode)};
}

Result<std::vector<acp::ConfigOption>> SessionManager::configOptions(const std::string& sessionId) {
  auto session = find(sessionId);
  if (!session) return session.error();
  return optionsOf(**session);
}

Result<std::vector<acp::ConfigOption>> SessionManager::setConfigOption(const std::string& sessionId,
                                                                      const std::string& configId,
                                                                      const std::string& value) {
  auto session = find(sessionId);
  if (!session) return session.error();
  if (configId == "mode") {
    auto mode = parseApprovalMode(value);
    if (!mode) return makeError(Errc::invalid_params, "params.value: unknown mode \"" + value + "\"");
    (*session)->setMode(*mode);
    if (auto recorder = recorderOf(sessionId)) recorder->setMode(toString(*mode));
    editor_.sendUpdate(sessionId, acp::CurrentModeUpdate{toString(*mode)});
  } else if (configId == "model") {
    const auto& choices = (*session)->config().modelChoices;
    if (!choices.empty() && std::find(choices.begin(), choices.end(), value) == choices.end()) {
      return makeError(Errc::invalid_params, "params.value: \"" + value + "\" is not one of the offered models");
    }
    (*session)->setModel(value);
    if (auto recorder = recorderOf(sessionId)) recorder->setModel(value);
  } else {
    return makeError(Errc::invalid_params, "params.configId: no option \"" + configId + "\" (model or mode)");
  }
  return optionsOf(**session);
}

Result<ApprovalMode> SessionManager::modeOf(const std::string& sessionId) {
  auto session = find(sessionId);
  if (!session) return session.error();
  return (*session)->mode();
}

Status SessionManager::cancel(const std::string& sessionId) {
  CancelToken token;
  {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(sessionId);
    if (it == sessions_.end()) return makeError(Errc::not_found, "params.sessionId: no session \"" + sessionId + "\"");
    if (!it->second.busy) return {};
    token = it->second.turnToken;
  }
  token.cancel();  // outside the lock: cancel callbacks may take a moment
  return {};
}

Status SessionManager::closeSession(const std::string& sessionId) {
  CancelToken token;
  {
    std::lock_guard lock(mutex_);
    reapRetired();
    auto it = sessions_.find(sessionId);
    if (it == sessions_.end()) return makeError(Errc::not_found, "params.sessionId: no session \"" + sessionId + "\"");
    token = it->second.turnToken;
    if (it->second.recorder) it->second.recorder->close();
    if (it->second.turn.joinable()) retired_.push_back({std::move(it->second.turn), it->second.turnEnded});
    sessions_.erase(it);  // the turn, if any, holds the session until it ends
  }
  token.cancel();
  ::malloc_trim(0);  // what the session held goes back to the system, not just to the heap
  return {};
}

void SessionManager::reapRetired() {
  for (auto it = retired_.begin(); it != retired_.end();) {
    if (!*it->ended) {
      ++it;
      continue;
    }
    it->turn.join();  // ended: returns at once
    it = retired_.erase(it);
  }
}

void SessionManager::cancelAll() {
  std::vector<CancelToken> tokens;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, entry] : sessions_) {
      if (entry.busy) tokens.push_back(entry.turnToken);
    }
  }
  for (auto& token : tokens) token.cancel();
}

void SessionManager::shutdown() {
  std::vector<std::thread> turns;
  std::vector<CancelToken> tokens;
  {
    std::lock_guard lock(mutex_);
    shuttingDown_ = true;
    for (auto& [id, entry] : sessions_) {
      tokens.push_back(entry.turnToken);
      if (entry.turn.joinable()) turns.push_back(std::move(entry.turn));
    }
    for (auto& retired : retired_) turns.push_back(std::move(retired.turn));
    retired_.clear();
  }
  for (auto& token : tokens) token.cancel();
  for (auto& turn : turns) turn.join();
  // MCP servers end now, not whenever the sessions are freed.
  std::vector<std::shared_ptr<Session>> sessions;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, entry] : sessions_) sessions.push_back(entry.session);
  }
  for (auto& session : sessions) session->mcpServers().shutdown();
}

}  // namespace lathe::engine
