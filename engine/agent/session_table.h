// The open sessions of one process: their ids, which one runs a turn, the
// turn's cancel token and thread. A session runs one turn at a time; closing
// it cancels the turn and never waits for it. Thread-safe.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/persistence/session_recorder.h"
#include "engine/session/session.h"
#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::engine {

class SessionTable {
 public:
  struct Open {
    std::shared_ptr<Session> session;
    std::shared_ptr<persist::SessionRecorder> recorder;  // null when sessions are not recorded
    bool busy = false;
  };
  using Turn = std::function<Result<acp::StopReason>(Session&, const CancelToken&)>;
  using TurnDone = std::function<void(Result<acp::StopReason>)>;

  ~SessionTable() { shutdown(); }

  // Fails when the id is open already or the agent is shutting down.
  Status add(const std::string& id, std::shared_ptr<Session> session, std::shared_ptr<persist::SessionRecorder> recorder);
  Result<std::shared_ptr<Session>> find(const std::string& id) const;
  // The open session of that id, if any (its busy flag as of now).
  std::optional<Open> lookup(const std::string& id) const;
  std::shared_ptr<persist::SessionRecorder> recorderOf(const std::string& id) const;
  bool shuttingDown() const;

  // Runs `turn` on a thread of its own; `done` runs exactly once, on it, when
  // the turn has ended. Fails at once for an unknown or busy session.
  Status startTurn(const std::string& id, Turn turn, TurnDone done);
  // Cancels the running turn of a session (nothing when idle).
  Status cancel(const std::string& id);
  // Cancels the turn and forgets the session (its hooks hear onClose); what it
  // owns is freed when its turn, if any, has ended.
  Status close(const std::string& id);
  // Cancels every running turn without waiting (the editor is gone).
  void cancelAll();
  // Refuses new sessions and turns, cancels and joins every turn, then ends
  // the sessions' MCP servers.
  void shutdown();

 private:
  struct Entry {
    std::shared_ptr<Session> session;
    std::shared_ptr<persist::SessionRecorder> recorder;
    CancelToken turnToken;
    bool busy = false;
    std::thread turn;
    std::shared_ptr<std::atomic<bool>> turnEnded;  // set by the turn thread as its last act
  };
  // A turn thread whose session was closed: joined once it has ended.
  struct Retired {
    std::thread turn;
    std::shared_ptr<std::atomic<bool>> ended;
  };
  void reapRetired();  // mutex_ held
  bool anyBusy() const;  // mutex_ held

  mutable std::mutex mutex_;
  std::map<std::string, Entry> entries_;
  std::vector<Retired> retired_;
  bool shuttingDown_ = false;
};

}  // namespace lathe::engine
