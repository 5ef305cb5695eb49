// All sessions of one process. Creates sessions, starts each prompt turn on its
// own thread, routes cancellation, and on shutdown cancels and joins every
// turn. Its methods are thread-safe.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/agent_config.h"
#include "engine/editor_client.h"
#include "engine/session.h"
#include "protocol/acp.h"

namespace lathe::engine {

class SessionManager {
 public:
  using TurnDone = std::function<void(Result<acp::StopReason>)>;

  SessionManager(AgentConfig config, EditorClient& editor);
  ~SessionManager();

  Result<std::string> newSession(const acp::NewSessionRequest& request);

  // Starts a turn; done runs exactly once, on the turn's thread, after every
  // update of the turn was sent. Fails at once for an unknown session or one
  // that is already running a turn.
  Status startPrompt(const acp::PromptRequest& request, TurnDone done);

  // Changes a session's approval mode and tells the editor (current_mode_update).
  Status setMode(const std::string& sessionId, const std::string& modeId);
  ApprovalMode initialMode() const { return config_.approvalMode; }
  // The modes offered to the editor, in display order.
  static std::vector<acp::SessionMode> availableModes();

  // Cancels the running turn of a session (no-op when idle).
  Status cancel(const std::string& sessionId);

  // Cancels every turn and waits for them to end.
  void shutdown();

 private:
  struct Entry {
    std::shared_ptr<Session> session;
    CancelToken turnToken;
    bool busy = false;
    std::thread turn;
  };

  AgentConfig config_;
  EditorClient& editor_;
  std::mutex mutex_;
  std::map<std::string, Entry> sessions_;
  bool shuttingDown_ = false;
};

}  // namespace lathe::engine
