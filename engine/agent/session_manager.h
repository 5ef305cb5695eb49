// All sessions of one process, as the server sees them: opening them (new,
// loaded, resumed, forked: SessionFactory assembles them), their turns and their
// options. The sessions and their turns live in a SessionTable. Its methods
// are thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/agent/session_factory.h"
#include "engine/agent/session_table.h"
#include "engine/config/agent_config.h"
#include "engine/config/consent_store.h"
#include "engine/persistence/session_store.h"
#include "engine/session/editor_client.h"
#include "protocol/acp/config_options.h"
#include "protocol/acp/content.h"
#include "protocol/acp/session.h"
#include "protocol/acp/session_fork.h"
#include "protocol/acp/session_store.h"
#include "protocol/acp/steering.h"
#include "tools/mcp/server_config.h"

namespace lathe::engine {

class SessionManager {
 public:
  // The prompt's answer: why the turn ended and the tokens it used.
  using TurnDone = std::function<void(Result<acp::PromptResponse>)>;

  SessionManager(AgentConfig config, EditorClient& editor);
  ~SessionManager();

  struct NewSession {
    std::string id;
    SessionTable::Opening opening;  // until the editor has the session (see SessionTable::Opening)
  };
  // Creates a session and starts the MCP servers the editor passed (without
  // waiting for them).
  Result<NewSession> newSession(const acp::NewSessionRequest& request);
  // Holds requests naming `id` until session/load or resume is answered (the
  // replay and the commands included): reserved on the thread that reads
  // requests, claimed by the worker that opens it (SessionTable::reserve).
  SessionTable::Opening reserve(const std::string& id) { return table_.reserve(id); }

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
  // session/fork: a new session (its own id and record) that goes on from a
  // copy of session `request.sessionId`'s conversation, open here or only
  // recorded, assembled for the request's cwd, roots and MCP servers as
  // session/new's are (with the original's mode and model). A turn under way
  // is left out: the copy is the conversation as its last turn left it.
  // Refused for an unknown session and one open in another process; the
  // original is never changed.
  Result<NewSession> forkSession(const acp::ForkSessionRequest& request);
  // Recorded sessions, newest first, optionally only those of one cwd; pages
  // follow an opaque cursor.
  Result<acp::ListSessionsResponse> listSessions(const acp::ListSessionsRequest& request) const;
  // Deletes a recorded session: its record and files are gone, it is no
  // longer listed and cannot be loaded. One open here is closed first, unless
  // a turn runs; one open in another process is refused, changing nothing.
  Status deleteSession(const std::string& sessionId);

  // Starts a turn, or queues it behind the one running (its prompt is shown
  // to the editor when it starts); done runs exactly once, on the turn's
  // thread, after every update of the turn was sent, or with stop reason
  // cancelled when the queue is dropped. Fails at once for an unknown session.
  Result<SessionTable::Ticket> startPrompt(const acp::PromptRequest& request, TurnDone done);
  // $/cancel_request for one prompt: the running turn ends (the next queued
  // one runs), a queued one leaves the queue.
  void cancelPrompt(const std::string& sessionId, SessionTable::Ticket ticket) { table_.cancelTurn(sessionId, ticket); }
  // _session/steering: the text joins the running turn; with none running it
  // is handed back (promptRequired) or starts a turn of its own.
  Result<acp::SteeringOutcome> steer(const acp::SteeringRequest& request);

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

  // Cancels a session's turn and every prompt queued behind it
  // (session/cancel), or the work of a running sub-agent by its child
  // session's id (the editor stops that child alone).
  Status cancel(const std::string& sessionId);
  Status closeSession(const std::string& sessionId) { return table_.close(sessionId); }
  void cancelAll() { table_.cancelAll(); }
  void shutdown() { table_.shutdown(); }

 private:
  // Opens what the factory assembled: into the table, then its MCP servers start.
  Status open(const std::string& id, AssembledSession& assembled);
  static std::string newId();
  // The session to fork, as recorded: its metadata and what a fork copies.
  struct ForkSource {
    persist::SessionMeta meta;
    persist::LoadedRecord record;
    persist::SessionLock lock;  // held while it is copied, when not open here
  };
  Result<ForkSource> forkSource(const std::string& id);
  // The one place a fork gets the original's other per-session files (its
  // rewinds' log), once the fork's record is written and before it is
  // assembled, so its Rewinds hook finds them.
  Status copySessionData(const std::string& originalId, const std::string& forkId);

  AgentConfig config_;
  EditorClient& editor_;
  persist::SessionStore store_;
  std::shared_ptr<ChildSessions> children_ = std::make_shared<ChildSessions>();
  SessionFactory factory_;
  SessionTable table_;  // last: its shutdown ends the turns before the rest goes
};

}  // namespace lathe::engine
