// The open sessions of one process: their ids, which one runs a turn and the
// turn's cancel token, and the turns queued behind it. Turns are tasks of one
// group on the executor. A session runs one turn at a time; a queued turn
// starts when the one before it has answered. Closing a session cancels its
// turn, answers the queued ones as cancelled and never waits. Thread-safe.
#pragma once

#include <condition_variable>
#include <deque>
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
#include "protocol/exec/task_group.h"

namespace lathe::engine {

class SessionTable {
 public:
  struct Open {
    std::shared_ptr<Session> session;
    std::shared_ptr<persist::SessionRecorder> recorder;  // null when sessions are not recorded
    bool busy = false;
  };
  using Turn = std::function<Result<acp::StopReason>(Session&, const CancelToken&)>;
  // A turn that may wait behind another: `waited` says it did.
  using QueuedTurn = std::function<Result<acp::StopReason>(Session&, const CancelToken&, bool waited)>;
  using TurnDone = std::function<void(Result<acp::StopReason>)>;
  // Names one queued or running turn (cancelTurn), unique in the table.
  using Ticket = uint64_t;

  explicit SessionTable(exec::Executor& executor = exec::Executor::shared()) : turns_(executor) {}
  ~SessionTable() { shutdown(); }

  // A session being opened (session/new, load, resume) until the editor has
  // it (the answer, the replay, the commands announced): requests naming its
  // id from other threads wait for the end of the opening, so one sent right
  // behind a load finds the session and a second load of the same id waits
  // for the first. Held by the thread that opens (see claim()); released
  // when destroyed.
  class Opening {
   public:
    Opening() = default;
    Opening(Opening&& other) noexcept;
    Opening& operator=(Opening&& other) noexcept;
    ~Opening() { release(); }
    // The calling thread opens the session from now on: its own requests
    // naming the id no longer wait.
    void claim();

   private:
    friend class SessionTable;
    Opening(SessionTable* table, std::string id) : table_(table), id_(std::move(id)) {}
    void release();
    SessionTable* table_ = nullptr;
    std::string id_;
  };
  // Waits while another opening of the same id holds it, then holds it for
  // the calling thread. reserve() holds it for nobody yet: the thread that
  // reads requests reserves before it hands the opening to a worker, which
  // claims it, so no request read in between slips past.
  Opening beginOpening(const std::string& id);
  Opening reserve(const std::string& id);

  // Fails when the id is open already or the agent is shutting down.
  Status add(const std::string& id, std::shared_ptr<Session> session, std::shared_ptr<persist::SessionRecorder> recorder);
  Result<std::shared_ptr<Session>> find(const std::string& id) const;
  // The open session of that id, if any (its busy flag as of now).
  std::optional<Open> lookup(const std::string& id) const;
  std::shared_ptr<persist::SessionRecorder> recorderOf(const std::string& id) const;
  bool shuttingDown() const;

  // Runs `turn` as a task of the turn group; `done` runs exactly once, on the
  // same worker, when the turn has ended. Fails at once for an unknown or busy session.
  Status startTurn(const std::string& id, Turn turn, TurnDone done);
  // The same, but a busy session queues the turn: it runs, in order, once
  // the turns before it answered. `done` runs exactly once: when the turn
  // has ended, or with stop reason cancelled when it leaves the queue unrun.
  Result<Ticket> queueTurn(const std::string& id, QueuedTurn turn, TurnDone done);
  // Cancels the running turn of a session and drops its queue (nothing when
  // idle): session/cancel.
  Status cancel(const std::string& id);
  // Cancels one turn: the running one (the queue goes on after it) or a
  // queued one (it leaves the queue). Nothing for one already answered.
  void cancelTurn(const std::string& id, Ticket ticket);
  // Turns waiting behind the running one.
  size_t queued(const std::string& id) const;
  // Cancels the turn and forgets the session (its hooks hear onClose); what it
  // owns is freed when its turn, if any, has ended.
  Status close(const std::string& id);
  // Cancels every running turn and drops the queues, without waiting (the editor is gone).
  void cancelAll();
  // Refuses new sessions and turns, cancels every turn and waits for them
  // (closed sessions' too), then ends the sessions' MCP servers.
  void shutdown();

 private:
  struct Pending {
    Ticket ticket = 0;
    QueuedTurn turn;
    TurnDone done;
  };
  struct Entry {
    std::shared_ptr<Session> session;
    std::shared_ptr<persist::SessionRecorder> recorder;
    CancelToken turnToken;  // the running turn's, a child of its task's
    Ticket running = 0;
    std::deque<Pending> queue;
    bool busy = false;
  };
  bool anyBusy() const;  // mutex_ held
  // Posts the task that runs `first`, then the entry's queue, turn by turn.
  Status post(const std::string& id, Entry& entry, Pending first);  // mutex_ held
  void runTurns(const std::string& id, const std::shared_ptr<Session>& session, const CancelToken& task, Pending next);
  static void answerCancelled(std::deque<Pending> dropped);
  // Waits while another thread opens `id`.
  void waitUntilOpened(std::unique_lock<std::mutex>& lock, const std::string& id) const;

  mutable std::mutex mutex_;
  std::map<std::string, Entry> entries_;
  bool shuttingDown_ = false;
  std::map<std::string, std::thread::id> opening_;  // ids being opened, by the thread opening them
  Ticket nextTicket_ = 0;
  mutable std::condition_variable openingEnded_;
  exec::TaskGroup turns_;  // last: joined before the entries go
};

}  // namespace lathe::engine
