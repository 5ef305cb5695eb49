// The ACP agent: one typed method table binds each ACP method to a member here
// that calls the engine. Handlers run on the peer's reading thread and never
// block: opening a session (it reads settings and records) and prompt turns
// run on the executor and answer through their Responder.
#pragma once

#include <atomic>
#include <memory>

#include "engine/agent/session_manager.h"
#include "protocol/acp/initialize.h"
#include "protocol/exec/task_group.h"
#include "protocol/jsonrpc/peer.h"
#include "server/acp_editor_client.h"

namespace lathe::server {

class AcpAgent {
 public:
  AcpAgent(std::shared_ptr<rpc::Peer> peer, engine::AgentConfig config);
  ~AcpAgent();

  // Cancels running turns and waits for them (at end of input).
  void shutdown();

 private:
  void bindMethods();

  Result<acp::InitializeResponse> initialize(const acp::InitializeRequest& request);
  // Answered off the reader: a login may wait for the person.
  void authenticate(const acp::AuthenticateRequest& request, rpc::Responder responder);
  // How a login that needs the person reaches them through this editor.
  engine::LoginPrompt loginPrompt(const rpc::Id& request, const CancelToken& login);
  Result<acp::Empty> logout(const acp::LogoutRequest& request);
  // Answered before the session's slash commands are announced (the editor
  // must know the session first), hence deferred.
  void newSession(const acp::NewSessionRequest& request, rpc::Responder responder);
  void prompt(const acp::PromptRequest& request, rpc::Responder responder);
  Result<acp::SteeringResponse> steer(const acp::SteeringRequest& request);
  Result<acp::Empty> setMode(const acp::SetModeRequest& request);
  Result<acp::SetConfigOptionResponse> setConfigOption(const acp::SetConfigOptionRequest& request);
  Result<acp::Empty> closeSession(const acp::CloseSessionRequest& request);
  Result<acp::Empty> deleteSession(const acp::DeleteSessionRequest& request);
  void loadSession(const acp::LoadSessionRequest& request, rpc::Responder responder);
  void resumeSession(const acp::ResumeSessionRequest& request, rpc::Responder responder);
  // A new session from a copy of another's conversation (unstable), answered as session/new is.
  void forkSession(const acp::ForkSessionRequest& request, rpc::Responder responder);
  Result<acp::ListSessionsResponse> listSessions(const acp::ListSessionsRequest& request);
  // Opens a recorded session; replays what it showed when `replay`.
  Result<acp::LoadSessionResponse> reopen(const acp::LoadSessionRequest& request, bool replay);
  // The answer to session/new for a session just opened.
  acp::NewSessionResponse newSessionResponse(const std::string& id);
  void cancel(const acp::CancelNotification& note);
  // Runs `work` as a task of opening_; it must answer through the responder.
  // A request the editor cancelled ($/cancel_request) before it started is
  // answered -32800 and not done; `work` gets the token of shutdown.
  void offReader(rpc::Responder responder, std::function<void(rpc::Responder&, const CancelToken&)> work);

  std::shared_ptr<rpc::Peer> peer_;
  std::shared_ptr<engine::AuthenticatedProvider> auth_;  // null: credentials come only from the environment
  AcpEditorClient editor_;
  engine::SessionManager sessions_;
  std::atomic<bool> initialized_{false};
  std::atomic<uint64_t> elicitations_{0};
  exec::TaskGroup opening_;  // session/new, load and resume being answered; after sessions_, which they use
};

}  // namespace lathe::server
