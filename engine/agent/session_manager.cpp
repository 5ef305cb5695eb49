// Opening sessions and routing the editor's requests to them.
#include "engine/agent/session_manager.h"

#include <random>

#include "engine/agent/session_options.h"

namespace lathe::engine {

std::string SessionManager::newId() {
  std::random_device device;
  std::uniform_int_distribution<int> nibble(0, 15);
  std::string id = "sess_";
  for (int i = 0; i < 24; ++i) id += "0123456789abcdef"[nibble(device)];
  return id;
}

SessionManager::SessionManager(AgentConfig config, EditorClient& editor)
    : config_(std::move(config)),
      editor_(editor),
      store_(config_.dataDir),
      factory_(config_, editor_, std::make_shared<ConsentStore>(config_.stateDir), store_, children_) {}

Status SessionManager::cancel(const std::string& sessionId) {
  if (children_->cancel(sessionId)) return {};
  return table_.cancel(sessionId);
}

SessionManager::~SessionManager() { shutdown(); }

Status SessionManager::open(const std::string& id, AssembledSession& assembled) {
  if (auto status = table_.add(id, assembled.session, assembled.recorder); !status) return status;
  assembled.session->startMcpServers(std::move(assembled.mcpServers));
  return {};
}

Result<SessionManager::NewSession> SessionManager::newSession(const acp::NewSessionRequest& request) {
  if (table_.shuttingDown()) return makeError(Errc::internal, "the agent is shutting down");
  // Without credentials no turn could reach the model: the editor is told now
  // (auth-required) and offers a login, before anything starts.
  if (auto ready = config_.provider ? config_.provider->credentialsReady() : Status{}; !ready) return ready.error();
  std::string id = newId();
  auto opening = table_.beginOpening(id);
  auto assembled = factory_.assemble({id, request.cwd, request.additionalDirectories, request.mcpServers, std::nullopt});
  if (!assembled) return assembled.error();
  if (auto status = open(id, *assembled); !status) return status.error();
  return NewSession{std::move(id), std::move(opening)};
}

Status SessionManager::startMcpServers(const std::string& sessionId, std::vector<tools::mcp::ServerConfig> servers) {
  auto session = table_.find(sessionId);
  if (!session) return session.error();
  (*session)->startMcpServers(std::move(servers));
  return {};
}

Result<SessionTable::Ticket> SessionManager::startPrompt(const acp::PromptRequest& request, TurnDone done) {
  // Read on the turn's thread as it ends, before the session takes another prompt.
  auto usage = std::make_shared<std::optional<acp::TurnUsage>>();
  return table_.queueTurn(
      request.sessionId,
      [blocks = request.prompt, usage](Session& session, const CancelToken& cancel, bool waited) {
        auto result = session.prompt(blocks, cancel, waited);
        *usage = session.turnUsage();
        return result;
      },
      [done = std::move(done), usage](Result<acp::StopReason> result) {
        if (!result) return done(result.error());
        done(acp::PromptResponse{*result, *usage});
      });
}

Result<acp::SteeringOutcome> SessionManager::steer(const acp::SteeringRequest& request) {
  auto session = table_.find(request.sessionId);
  if (!session) return session.error();
  if ((*session)->steer(request.prompt)) return acp::SteeringOutcome::injected;
  if (request.promptRequiredWhenIdle) return acp::SteeringOutcome::promptRequired;
  // No turn to join: the text is a prompt of its own, shown as the person's
  // (no session/prompt carries it), its end told by the updates alone.
  auto queued = table_.queueTurn(
      request.sessionId,
      [blocks = request.prompt](Session& s, const CancelToken& cancel, bool) { return s.prompt(blocks, cancel, true); },
      [weak = std::weak_ptr<Session>(*session)](Result<acp::StopReason> result) {
        // Nobody awaits this turn's answer: a failure is told to the person.
        auto live = weak.lock();
        if (!result && live) live->notify({acp::NoticeSeverity::error, "The turn your message started failed", result.error().message});
      });
  if (!queued) return queued.error();
  return acp::SteeringOutcome::startedNewTurn;
}

Status SessionManager::announceCommands(const std::string& sessionId) {
  auto session = table_.find(sessionId);
  if (!session) return session.error();
  (*session)->editorReady();
  return {};
}

Status SessionManager::setMode(const std::string& sessionId, const std::string& modeId) {
  auto mode = parseApprovalMode(modeId);
  if (!mode) return makeError(Errc::invalid_params, "params.modeId: unknown mode \"" + modeId + "\"");
  auto session = table_.find(sessionId);
  if (!session) return session.error();
  changeMode(**session, editor_, *mode);
  return {};
}

Result<std::vector<acp::ConfigOption>> SessionManager::configOptions(const std::string& sessionId) {
  auto session = table_.find(sessionId);
  if (!session) return session.error();
  return optionsOf(**session);
}

Result<std::vector<acp::ConfigOption>> SessionManager::setConfigOption(const std::string& sessionId,
                                                                      const std::string& configId,
                                                                      const std::string& value) {
  auto session = table_.find(sessionId);
  if (!session) return session.error();
  return setOption(**session, editor_, configId, value);
}

Result<ApprovalMode> SessionManager::modeOf(const std::string& sessionId) {
  auto session = table_.find(sessionId);
  if (!session) return session.error();
  return (*session)->mode();
}

}  // namespace lathe::engine
