// ACP handlers.
#include "server/acp_agent.h"

#include "server/log.h"
#include "server/version.h"

namespace lathe::server {
namespace {

const json::Value& paramsOf(const rpc::Incoming& msg) {
  static const json::Value kNull;  // absent params decode as "expected an object"
  return msg.params ? *msg.params : kNull;
}

}  // namespace

AcpAgent::AcpAgent(std::shared_ptr<Peer> peer, engine::AgentConfig config)
    : peer_(std::move(peer)), editor_(peer_), sessions_(std::move(config), editor_) {
  registerMethods();
}

AcpAgent::~AcpAgent() { shutdown(); }

void AcpAgent::shutdown() { sessions_.shutdown(); }

void AcpAgent::registerMethods() {
  peer_->setGate([this](const std::string& method) -> std::optional<Error> {
    if (method == "initialize" || initialized_.load()) return std::nullopt;
    return makeError(Errc::invalid_request, "the client must call initialize before " + method);
  });

  peer_->onRequest("initialize", [this](const rpc::Incoming& msg, Responder responder) {
    auto request = acp::InitializeRequest::fromJson(paramsOf(msg));
    if (!request) return responder.fail(request.error());
    editor_.setCapabilities(request->clientCapabilities);
    initialized_ = true;
    acp::InitializeResponse response;
    response.agentInfo = {"lathe", "Lathe", kVersion};
    response.image = true;
    response.embeddedContext = true;
    responder.reply(response.toJson());
  });

  peer_->onRequest("authenticate", [](const rpc::Incoming&, Responder responder) {
    // No auth methods are advertised: the API key comes from the environment.
    responder.fail(makeError(Errc::invalid_params, "Lathe offers no authentication methods; set GEMINI_API_KEY"));
  });

  peer_->onRequest("session/new", [this](const rpc::Incoming& msg, Responder responder) {
    auto request = acp::NewSessionRequest::fromJson(paramsOf(msg));
    if (!request) return responder.fail(request.error());
    auto id = sessions_.newSession(*request);
    if (!id) return responder.fail(id.error());
    if (request->mcpServers.text.size() > 2) {
      log(LogLevel::warn, "session/new listed MCP servers; MCP is not supported yet, so they are not connected");
    }
    acp::NewSessionResponse response;
    response.sessionId = *id;
    response.currentModeId = engine::toString(sessions_.initialMode());
    response.availableModes = engine::SessionManager::availableModes();
    responder.reply(response.toJson());
  });

  peer_->onRequest("session/prompt", [this](const rpc::Incoming& msg, Responder responder) {
    auto request = acp::PromptRequest::fromJson(paramsOf(msg));
    if (!request) return responder.fail(request.error());
    auto shared = std::make_shared<Responder>(std::move(responder));
    auto started = sessions_.startPrompt(*request, [shared](Result<acp::StopReason> result) {
      if (!result) return shared->fail(result.error());
      shared->reply(acp::PromptResponse{*result}.toJson());
    });
    if (!started) shared->fail(started.error());
  });

  peer_->onRequest("session/set_mode", [this](const rpc::Incoming& msg, Responder responder) {
    auto request = acp::SetModeRequest::fromJson(paramsOf(msg));
    if (!request) return responder.fail(request.error());
    if (auto status = sessions_.setMode(request->sessionId, request->modeId); !status) {
      return responder.fail(status.error());
    }
    responder.reply(json::Raw{});
  });

  peer_->onNotification("session/cancel", [this](const rpc::Incoming& msg) {
    auto note = acp::CancelNotification::fromJson(paramsOf(msg));
    if (!note) return log(LogLevel::warn, "bad session/cancel: " + note.error().message);
    if (auto status = sessions_.cancel(note->sessionId); !status) log(LogLevel::warn, status.error().message);
  });
}

}  // namespace lathe::server
