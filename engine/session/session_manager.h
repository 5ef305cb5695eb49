// All sessions of one process. Creates sessions, starts each prompt turn on its
// own thread, routes cancellation, and on shutdown cancels and joins every
// turn. Its methods are thread-safe.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/config/agent_config.h"
#include "engine/config/consent_store.h"
#include "engine/config/workspace_programs.h"
#include "engine/persistence/session_recorder.h"
#include "engine/persistence/session_store.h"
#include "engine/session/editor_client.h"
#include "engine/session/session.h"
#include "protocol/acp/content.h"
#include "protocol/acp/session.h"
#include "tools/mcp/server_config.h"
#include "protocol/acp/session_store.h"

namespace lathe::engine {

class SessionManager {
 public:
  using TurnDone = std::function<void(Result<acp::StopReason>)>;

  SessionManager(AgentConfig config, EditorClient& editor);
  ~SessionManager();

  // Creates a session and starts the MCP servers the editor passed (without
  // waiting for them).
  Result<std::string> newSession(const acp::NewSessionRequest& request);

  // The one way MCP servers join a session, whatever named them (the editor,
  // settings): each starts in parallel; session/new never waits for them.
  Status startMcpServers(const std::string& sessionId, std::vector<tools::mcp::ServerConfig> servers);
  // Sessions are recorded (under config.dataDir) and can be loaded again.
  bool recording() const { return store_.enabled(); }
  // Opens a recorded session in this process (session/load, session/resume):
  // its history rebuilt, its metadata brought up to date. Returns the
  // session/update params it showed, to replay in order. Fails with a clear
  // message for an unknown, damaged or elsewhere-open session, changing nothing.
  Result<std::vector<std::string>> loadSession(const acp::LoadSessionRequest& request);
  // Recorded sessions, newest first, optionally only those of one cwd; pages
  // follow an opaque cursor.
  Result<acp::ListSessionsResponse> listSessions(const acp::ListSessionsRequest& request) const;

  // Starts a turn; done runs exactly once, on the turn's thread, after every
  // update of the turn was sent. Fails at once for an unknown session or one
  // that is already running a turn.
  Status startPrompt(const acp::PromptRequest& request, TurnDone done);

  // Sends the session's slash commands to the editor, and from now on every
  // change of them: call once the editor has the session (after answering
  // session/new, load or resume), so the update is never for an unknown id.
  Status announceCommands(const std::string& sessionId);

  // Changes a session's approval mode and tells the editor (current_mode_update
  // and config_option_update).
  Status setMode(const std::string& sessionId, const std::string& modeId);

  // The session's options for the editor's pickers: the model and the mode.
  Result<std::vector<acp::ConfigOption>> configOptions(const std::string& sessionId);
  // Sets one (from the next model request on) and returns them all.
  Result<std::vector<acp::ConfigOption>> setConfigOption(const std::string& sessionId, const std::string& configId,
                                                        const std::string& value);
  ApprovalMode initialMode() const { return config_.approvalMode; }
  // A session's mode now (its workspace's settings may have set it).
  Result<ApprovalMode> modeOf(const std::string& sessionId);
  // The modes offered to the editor, in display order.
  static std::vector<acp::SessionMode> availableModes();

  // Cancels the running turn of a session (no-op when idle).
  Status cancel(const std::string& sessionId);

  // Cancels the session's turn and forgets the session; what it owns is freed
  // when its turn (if any) has ended. Never waits.
  Status closeSession(const std::string& sessionId);

  // Cancels every running turn without waiting (the editor is gone).
  void cancelAll();

  // Cancels every turn and waits for them to end.
  void shutdown();

 private:
  struct Entry {
    std::shared_ptr<Session> session;
    CancelToken turnToken;
    bool busy = false;
    std::thread turn;
    std::shared_ptr<std::atomic<bool>> turnEnded;  // set by the turn thread as its last act
    std::shared_ptr<persist::SessionRecorder> recorder;  // null when sessions are not recorded
  };
  // A turn thread whose session was closed: joined once it has ended.
  struct Retired {
    std::thread turn;
    std::shared_ptr<std::atomic<bool>> ended;
  };

  // The workspace of cwd and the other roots, or an error naming the bad one.
  static Result<std::shared_ptr<const tools::Workspace>> workspaceFor(const std::string& cwd,
                                                                     const std::vector<std::string>& directories);
  void reapRetired();  // joins retired turns that have ended; mutex_ held
  Result<std::shared_ptr<Session>> find(const std::string& sessionId);
  std::shared_ptr<persist::SessionRecorder> recorderOf(const std::string& sessionId) const;
  std::vector<acp::ConfigOption> optionsOf(const Session& session) const;
  static std::vector<tools::mcp::ServerConfig> mcpServersOf(const std::vector<acp::McpServer>& fromEditor,
                                                            const std::string& cwd, const AgentConfig& config);
  // A session's config and what its workspace's settings file asks for
  // (engine/config/workspace_settings.h).
  struct WorkspaceSetup {
    std::shared_ptr<const AgentConfig> config;  // the user's, the workspace's merged in
    std::optional<WorkspacePrograms> programs;  // what consent is asked for at the first turn
    std::shared_ptr<const AgentConfig> widened;  // with the widening settings too, when they wait for consent
    std::vector<std::string> wideningKeys;       // those settings' names, when they wait
    std::string ignoredNotice;
    std::vector<std::pair<std::string, std::string>> notices;
  };
  WorkspaceSetup workspaceSetupFor(const std::string& root) const;
  std::string grantWidening(Session& session, const AgentConfig& widened, const std::vector<std::string>& keys);
  // A new or loaded session with its hooks (workspace programs, context
  // management); the recorder is the caller's to add, last.
  Result<std::shared_ptr<Session>> assemble(const std::string& id, std::shared_ptr<const tools::Workspace> workspace);

  AgentConfig config_;
  EditorClient& editor_;
  std::shared_ptr<ConsentStore> consent_;  // workspace consent, shared by the sessions
  persist::SessionStore store_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry> sessions_;
  std::vector<Retired> retired_;
  bool shuttingDown_ = false;
};

}  // namespace lathe::engine
