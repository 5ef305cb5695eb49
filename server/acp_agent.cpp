// ACP handlers.
#include "server/acp_agent.h"

#include "engine/agent/session_options.h"
#include "protocol/base/log.h"
#include "protocol/acp/elicitation.h"
#include "protocol/exec/executor.h"
#include "server/method_table.h"
#include "server/version.h"

namespace lathe::server {
AcpAgent::AcpAgent(std::shared_ptr<rpc::Peer> peer, engine::AgentConfig config)
    : peer_(std::move(peer)), auth_(config.auth), editor_(peer_), sessions_(std::move(config), editor_) {
  bindMethods();
}

AcpAgent::~AcpAgent() {
  shutdown();
  peer_->onOutputClosed({});
}

void AcpAgent::shutdown() {
  opening_.join();  // no session opens after this
  sessions_.shutdown();
}

namespace {

Error cancelledByEditor(const std::string& method) {
  return makeError(Errc::cancelled, method + " was cancelled by the client");
}

}  // namespace

void AcpAgent::offReader(rpc::Responder responder, std::function<void(rpc::Responder&, const CancelToken&)> work) {
  auto shared = std::make_shared<rpc::Responder>(std::move(responder));
  auto posted = opening_.post([shared, work = std::move(work)](const CancelToken& cancel) {
    if (shared->cancelled().cancelled()) return shared->fail(cancelledByEditor("the request"));
    work(*shared, cancel);
  });
  if (!posted) shared->fail(makeError(Errc::internal, "the agent is shutting down"));
}

void AcpAgent::bindMethods() {
  // Nobody reads what the turns produce any more: stop them all.
  peer_->onOutputClosed([this] { sessions_.cancelAll(); });
  peer_->setGate([this](const std::string& method) -> std::optional<Error> {
    if (method == "initialize" || initialized_.load()) return std::nullopt;
    return makeError(Errc::invalid_request, "the client must call initialize before " + method);
  });
  MethodTable<AcpAgent>(*peer_, *this)
      .request("initialize", &AcpAgent::initialize)
      .deferred("authenticate", &AcpAgent::authenticate)
      .request("logout", &AcpAgent::logout)
      .deferred("session/new", &AcpAgent::newSession)
      .deferred("session/prompt", &AcpAgent::prompt)
      .request(acp::kSteeringMethod, &AcpAgent::steer)
      .request("session/set_mode", &AcpAgent::setMode)
      .request("session/set_config_option", &AcpAgent::setConfigOption)
      .request("session/close", &AcpAgent::closeSession)
      .request("session/delete", &AcpAgent::deleteSession)
      .deferred("session/load", &AcpAgent::loadSession)
      .deferred("session/resume", &AcpAgent::resumeSession)
      .deferred("session/fork", &AcpAgent::forkSession)
      .request("session/list", &AcpAgent::listSessions)
      .notification("session/cancel", &AcpAgent::cancel);
}

Result<acp::InitializeResponse> AcpAgent::initialize(const acp::InitializeRequest& request) {
  editor_.setCapabilities(request.clientCapabilities);
  initialized_ = true;
  exec::Executor::shared().prestart();  // the session/new that follows is answered on a worker
  log(LogLevel::info, "initialize from " + (request.clientName.empty() ? std::string("an unnamed client") : request.clientName));
  acp::InitializeResponse response;
  response.agentInfo = {"lathe", "Lathe", kVersion};
  response.capabilities.image = true;
  response.capabilities.embeddedContext = true;
  response.capabilities.sessionAdditionalDirectories = true;
  response.capabilities.sessionClose = true;
  response.capabilities.mcpHttp = true;  // Streamable HTTP (tools/mcp/http_channel.h)
  response.capabilities.mcpSse = true;   // and the legacy HTTP+SSE transport
  // Without a state directory nothing is recorded, so nothing can be loaded.
  response.capabilities.loadSession = sessions_.recording();
  response.capabilities.sessionList = sessions_.recording();
  response.capabilities.sessionResume = sessions_.recording();
  response.capabilities.sessionDelete = sessions_.recording();
  response.capabilities.sessionFork = sessions_.recording();  // a fork is a copy of a record
  response.capabilities.steering = true;
  if (auth_) {
    for (auto& method : auth_->methods(request.clientCapabilities.elicitationUrl)) {
      response.authMethods.push_back({method.id, method.name, method.description, json::Raw{method.meta}});
    }
    response.capabilities.logout = true;
  }
  return response;
}

void AcpAgent::authenticate(const acp::AuthenticateRequest& request, rpc::Responder responder) {
  if (!auth_) return responder.fail(makeError(Errc::invalid_params, "Lathe offers no authentication methods here"));
  bool offered = false;
  for (const auto& method : auth_->methods(editor_.capabilities().elicitationUrl)) offered = offered || method.id == request.methodId;
  if (!offered) {
    return responder.fail(makeError(Errc::invalid_params, "params.methodId: \"" + request.methodId + "\" is not an offered auth method"));
  }
  // A login may wait minutes for the person (Log in with Google): never on the reader.
  offReader(std::move(responder), [this, request](rpc::Responder& answer, const CancelToken& cancel) {
    engine::Credentials given;
    given.method = request.methodId;
    given.apiKey = request.apiKey.value_or("");
    given.baseUrl = request.gatewayBaseUrl.value_or("");
    given.headers = request.gatewayHeaders;
    const CancelToken login = cancel.child();  // by shutdown, the editor ($/cancel_request) or the person declining the page
    auto byEditor = answer.cancelled().onCancel([login] { login.cancel(); });
    auto status = auth_->authenticate(std::move(given), loginPrompt(*answer.id(), login), login);
    if (!status) return answer.fail(status.error());
    log(LogLevel::info, "authenticated with " + request.methodId);
    answer.reply(acp::Empty{}.toJson());
  });
}

// A login page is shown through a URL elicitation tied to the authenticate
// request; the person declining it cancels the login.
engine::LoginPrompt AcpAgent::loginPrompt(const rpc::Id& request, const CancelToken& login) {
  engine::LoginPrompt prompt;
  if (!editor_.capabilities().elicitationUrl) return prompt;
  auto id = std::make_shared<std::string>("lathe-login-" + std::to_string(++elicitations_));
  prompt.showUrl = [this, id, request, login](const std::string& url) {
    acp::ElicitationRequest ask;
    ask.mode = acp::ElicitationRequest::Mode::url;
    ask.requestId = request.raw;
    ask.elicitationId = *id;
    ask.url = url;
    ask.message = "Log in with Google in your browser, then come back to your editor.";
    json::Raw params{json::build([&](json::Writer& w) { ask.writeJson(w); })};
    peer_->request("elicitation/create", params, [login](Result<rpc::Response> answer) {
      auto response = answer ? acp::ElicitationResponse::fromJson(*answer->result) : Result<acp::ElicitationResponse>(answer.error());
      if (!response || response->action != acp::ElicitationResponse::Action::accept) login.cancel();
    });
  };
  prompt.finished = [this, id] { peer_->notify("elicitation/complete", acp::elicitationCompleteParams(*id)); };
  return prompt;
}

Result<acp::Empty> AcpAgent::logout(const acp::LogoutRequest&) {
  if (!auth_) return makeError(Errc::invalid_params, "Lathe offers no authentication methods here");
  if (auto status = auth_->logout(); !status) return status.error();
  return acp::Empty{};
}

void AcpAgent::newSession(const acp::NewSessionRequest& request, rpc::Responder responder) {
  offReader(std::move(responder), [this, request](rpc::Responder& answer, const CancelToken&) {
    auto opened = sessions_.newSession(request);
    if (!opened) return answer.fail(opened.error());
    if (answer.cancelled().cancelled()) {
      // Nobody will use it: the editor never learns its id.
      (void)sessions_.closeSession(opened->id);
      return answer.fail(cancelledByEditor("session/new"));
    }
    answer.reply(newSessionResponse(opened->id).toJson());
    (void)sessions_.announceCommands(opened->id);
  });
}

acp::NewSessionResponse AcpAgent::newSessionResponse(const std::string& id) {
  acp::NewSessionResponse response;
  response.sessionId = id;
  auto mode = sessions_.modeOf(id);
  response.currentModeId = engine::toString(mode ? *mode : sessions_.initialMode());
  response.availableModes = engine::availableModes();
  if (auto options = sessions_.configOptions(id)) response.configOptions = std::move(options).value();
  return response;
}

void AcpAgent::prompt(const acp::PromptRequest& request, rpc::Responder responder) {
  // A prompt sent while a turn runs waits behind it. $/cancel_request for the
  // prompt ends its turn at once with stopReason cancelled (the queue goes
  // on), or takes it out of the queue; session/cancel ends them all.
  struct Call {
    explicit Call(rpc::Responder r) : responder(std::move(r)) {}
    rpc::Responder responder;
    CancelToken::Registration onCancel;
  };
  auto call = std::make_shared<Call>(std::move(responder));
  auto started = sessions_.startPrompt(request, [call](Result<acp::PromptResponse> result) {
    if (!result) return call->responder.fail(result.error());
    call->responder.reply(result->toJson());
  });
  if (!started) return call->responder.fail(started.error());
  // The ticket names this prompt's turn only: a late cancel never reaches the next one.
  call->onCancel = call->responder.cancelled().onCancel(
      [this, id = request.sessionId, ticket = *started] { sessions_.cancelPrompt(id, ticket); });
}

Result<acp::SteeringResponse> AcpAgent::steer(const acp::SteeringRequest& request) {
  auto outcome = sessions_.steer(request);
  if (!outcome) return outcome.error();
  return acp::SteeringResponse{*outcome};
}

Result<acp::Empty> AcpAgent::setMode(const acp::SetModeRequest& request) {
  if (auto status = sessions_.setMode(request.sessionId, request.modeId); !status) return status.error();
  return acp::Empty{};
}

Result<acp::SetConfigOptionResponse> AcpAgent::setConfigOption(const acp::SetConfigOptionRequest& request) {
  auto options = sessions_.setConfigOption(request.sessionId, request.configId, request.value);
  if (!options) return options.error();
  return acp::SetConfigOptionResponse{std::move(options).value()};
}

Result<acp::Empty> AcpAgent::closeSession(const acp::CloseSessionRequest& request) {
  if (auto status = sessions_.closeSession(request.sessionId); !status) return status.error();
  return acp::Empty{};
}

Result<acp::Empty> AcpAgent::deleteSession(const acp::DeleteSessionRequest& request) {
  if (auto status = sessions_.deleteSession(request.sessionId); !status) return status.error();
  return acp::Empty{};
}

Result<acp::LoadSessionResponse> AcpAgent::reopen(const acp::LoadSessionRequest& request, bool replay) {
  auto shown = sessions_.loadSession(request);
  if (!shown) return shown.error();
  // The whole conversation reaches the editor before the answer that ends the load.
  if (replay) {
    for (auto& params : *shown) peer_->notify("session/update", json::Raw{std::move(params)});
  }
  acp::LoadSessionResponse response;
  response.availableModes = engine::availableModes();
  if (auto options = sessions_.configOptions(request.sessionId)) response.configOptions = std::move(options).value();
  for (const auto& option : response.configOptions) {
    if (option.id == "mode") response.currentModeId = option.currentValue;
  }
  return response;
}

void AcpAgent::loadSession(const acp::LoadSessionRequest& request, rpc::Responder responder) {
  // Reserved here, before the next request is read: one naming this id waits for the answer.
  auto opening = std::make_shared<engine::SessionTable::Opening>(sessions_.reserve(request.sessionId));
  offReader(std::move(responder), [this, request, opening](rpc::Responder& answer, const CancelToken&) {
    opening->claim();
    auto response = reopen(request, true);
    if (!response) return answer.fail(response.error());
    answer.reply(response->toJson());
    (void)sessions_.announceCommands(request.sessionId);
  });
}

void AcpAgent::resumeSession(const acp::ResumeSessionRequest& request, rpc::Responder responder) {
  // Reserved here, before the next request is read: one naming this id waits for the answer.
  auto opening = std::make_shared<engine::SessionTable::Opening>(sessions_.reserve(request.sessionId));
  offReader(std::move(responder), [this, request, opening](rpc::Responder& answer, const CancelToken&) {
    opening->claim();
    auto response = reopen(request, false);
    if (!response) return answer.fail(response.error());
    answer.reply(response->toJson());
    (void)sessions_.announceCommands(request.sessionId);
  });
}

void AcpAgent::forkSession(const acp::ForkSessionRequest& request, rpc::Responder responder) {
  // The original is held from here until it is copied, as behind a load: a
  // request naming it that is read meanwhile waits, so a prompt sent after
  // the fork never reaches the copy.
  auto original = std::make_shared<engine::SessionTable::Opening>(sessions_.reserve(request.sessionId));
  offReader(std::move(responder), [this, request, original](rpc::Responder& answer, const CancelToken&) {
    original->claim();
    auto forked = sessions_.forkSession(request);
    *original = engine::SessionTable::Opening{};
    if (!forked) return answer.fail(forked.error());
    if (answer.cancelled().cancelled()) {
      // Nobody will use it: the editor never learns its id, and it is not listed.
      (void)sessions_.deleteSession(forked->id);
      return answer.fail(cancelledByEditor("session/fork"));
    }
    answer.reply(newSessionResponse(forked->id).toJson());
    (void)sessions_.announceCommands(forked->id);
  });
}

Result<acp::ListSessionsResponse> AcpAgent::listSessions(const acp::ListSessionsRequest& request) {
  return sessions_.listSessions(request);
}

void AcpAgent::cancel(const acp::CancelNotification& note) {
  if (auto status = sessions_.cancel(note.sessionId); !status) log(LogLevel::warn, status.error().message);
}

}  // namespace lathe::server
