// Session bookkeeping and turn tasks.
#include "engine/agent/session_table.h"

#include <malloc.h>

#include <algorithm>
#include <utility>

#include "engine/hooks/session_hooks.h"

namespace lathe::engine {
namespace {

Error noSession(const std::string& id) {
  return makeError(Errc::not_found, "params.sessionId: no session \"" + id + "\"");
}

Error shuttingDownError() { return makeError(Errc::internal, "the agent is shutting down"); }

}  // namespace

Status SessionTable::add(const std::string& id, std::shared_ptr<Session> session,
                         std::shared_ptr<persist::SessionRecorder> recorder) {
  std::lock_guard lock(mutex_);
  if (shuttingDown_) return shuttingDownError();
  if (entries_.count(id)) {
    return makeError(Errc::invalid_params, "params.sessionId: session " + id + " is already open in this connection");
  }
  Entry entry;
  entry.session = std::move(session);
  entry.recorder = std::move(recorder);
  entries_.emplace(id, std::move(entry));
  return {};
}

Result<std::shared_ptr<Session>> SessionTable::find(const std::string& id) const {
  std::unique_lock lock(mutex_);
  waitUntilOpened(lock, id);
  auto it = entries_.find(id);
  if (it == entries_.end()) return noSession(id);
  return it->second.session;
}

std::optional<SessionTable::Open> SessionTable::lookup(const std::string& id) const {
  std::unique_lock lock(mutex_);
  waitUntilOpened(lock, id);
  auto it = entries_.find(id);
  if (it == entries_.end()) return std::nullopt;
  return Open{it->second.session, it->second.recorder, it->second.busy};
}

std::shared_ptr<persist::SessionRecorder> SessionTable::recorderOf(const std::string& id) const {
  std::unique_lock lock(mutex_);
  waitUntilOpened(lock, id);
  auto it = entries_.find(id);
  return it == entries_.end() ? nullptr : it->second.recorder;
}

bool SessionTable::shuttingDown() const {
  std::lock_guard lock(mutex_);
  return shuttingDown_;
}

SessionTable::Opening SessionTable::reserve(const std::string& id) {
  std::unique_lock lock(mutex_);
  waitUntilOpened(lock, id);
  opening_[id] = std::thread::id();  // nobody's: every request naming it waits
  return Opening(this, id);
}

SessionTable::Opening SessionTable::beginOpening(const std::string& id) {
  Opening opening = reserve(id);
  opening.claim();
  return opening;
}

void SessionTable::Opening::claim() {
  if (!table_) return;
  {
    std::lock_guard lock(table_->mutex_);
    table_->opening_[id_] = std::this_thread::get_id();
  }
  table_->openingEnded_.notify_all();
}

void SessionTable::Opening::release() {
  if (!table_) return;
  {
    std::lock_guard lock(table_->mutex_);
    table_->opening_.erase(id_);
  }
  table_->openingEnded_.notify_all();
  table_ = nullptr;
}

SessionTable::Opening::Opening(Opening&& other) noexcept
    : table_(std::exchange(other.table_, nullptr)), id_(std::move(other.id_)) {}

SessionTable::Opening& SessionTable::Opening::operator=(Opening&& other) noexcept {
  if (this != &other) {
    release();
    table_ = std::exchange(other.table_, nullptr);
    id_ = std::move(other.id_);
  }
  return *this;
}

void SessionTable::waitUntilOpened(std::unique_lock<std::mutex>& lock, const std::string& id) const {
  openingEnded_.wait(lock, [&] {
    auto it = opening_.find(id);
    return it == opening_.end() || it->second == std::this_thread::get_id();
  });
}

bool SessionTable::anyBusy() const {
  return std::any_of(entries_.begin(), entries_.end(), [](const auto& e) { return e.second.busy; });
}

Status SessionTable::startTurn(const std::string& id, Turn turn, TurnDone done) {
  std::unique_lock lock(mutex_);
  waitUntilOpened(lock, id);
  if (shuttingDown_) return shuttingDownError();
  auto it = entries_.find(id);
  if (it == entries_.end()) return noSession(id);
  if (it->second.busy) return makeError(Errc::invalid_request, "session " + id + " is already running a prompt turn");
  auto once = [turn = std::move(turn)](Session& session, const CancelToken& cancel, bool) { return turn(session, cancel); };
  return post(id, it->second, Pending{++nextTicket_, std::move(once), std::move(done)});
}

Result<SessionTable::Ticket> SessionTable::queueTurn(const std::string& id, QueuedTurn turn, TurnDone done) {
  std::unique_lock lock(mutex_);
  waitUntilOpened(lock, id);
  if (shuttingDown_) return shuttingDownError();
  auto it = entries_.find(id);
  if (it == entries_.end()) return noSession(id);
  Pending pending{++nextTicket_, std::move(turn), std::move(done)};
  const Ticket ticket = pending.ticket;
  if (it->second.busy) {
    it->second.queue.push_back(std::move(pending));
    return ticket;
  }
  if (auto status = post(id, it->second, std::move(pending)); !status) return status.error();
  return ticket;
}

Status SessionTable::post(const std::string& id, Entry& entry, Pending first) {
  const Ticket ticket = first.ticket;
  auto token = turns_.post([this, id, session = entry.session, first = std::move(first)](const CancelToken& task) mutable {
    runTurns(id, session, task, std::move(first));
  });
  if (!token) return shuttingDownError();
  entry.busy = true;
  entry.running = ticket;
  entry.turnToken = token->child();
  return {};
}

// One task runs the session's turns one after another: each with a token of
// its own (a cancelled one leaves the next unharmed), each answered before
// the next starts, so a prompt queued meanwhile waits behind them all.
void SessionTable::runTurns(const std::string& id, const std::shared_ptr<Session>& session, const CancelToken& task,
                            Pending next) {
  bool waited = false;
  for (;;) {
    CancelToken cancel;
    {
      std::lock_guard lock(mutex_);
      auto own = entries_.find(id);
      if (own != entries_.end() && own->second.session == session) {
        cancel = own->second.turnToken;
      } else {
        cancel.cancel();  // closed before the turn started: it starts cancelled
      }
    }
    Result<acp::StopReason> result = makeError(Errc::internal, "the turn ended unexpectedly");
    session->holdFollowUps();
    try {
      result = next.turn(*session, cancel, waited);
    } catch (const std::exception& e) {
      result = makeError(Errc::internal, std::string("internal error during the turn: ") + e.what());
    }
    next.done(std::move(result));
    session->turnAnswered();  // its title and the like go out after the answer
    std::deque<Pending> dropped;
    bool idle = false;
    {
      std::lock_guard lock(mutex_);
      auto own = entries_.find(id);
      const bool ours = own != entries_.end() && own->second.session == session;
      if (ours && !own->second.queue.empty() && !task.cancelled() && !shuttingDown_) {
        next = std::move(own->second.queue.front());
        own->second.queue.pop_front();
        own->second.running = next.ticket;
        own->second.turnToken = task.child();
        waited = true;
        continue;
      }
      if (ours) {
        own->second.busy = false;
        own->second.running = 0;
        dropped = std::exchange(own->second.queue, {});
      }
      idle = !anyBusy();
    }
    answerCancelled(std::move(dropped));
    // The last turn of a burst hands its threads' heap arenas back to the system.
    if (idle) ::malloc_trim(0);
    return;
  }
}

void SessionTable::answerCancelled(std::deque<Pending> dropped) {
  for (auto& pending : dropped) pending.done(acp::StopReason::cancelled);
}

Status SessionTable::cancel(const std::string& id) {
  CancelToken token;
  std::deque<Pending> dropped;
  {
    std::unique_lock lock(mutex_);
    waitUntilOpened(lock, id);
    auto it = entries_.find(id);
    if (it == entries_.end()) return noSession(id);
    if (!it->second.busy) return {};
    token = it->second.turnToken;
    dropped = std::exchange(it->second.queue, {});
  }
  answerCancelled(std::move(dropped));  // the queue goes with the turn, answered before it
  token.cancel();                        // outside the lock: cancel callbacks may take a moment
  return {};
}

void SessionTable::cancelTurn(const std::string& id, Ticket ticket) {
  CancelToken token;
  std::deque<Pending> dropped;
  {
    std::unique_lock lock(mutex_);
    waitUntilOpened(lock, id);
    auto it = entries_.find(id);
    if (it == entries_.end()) return;
    Entry& entry = it->second;
    if (entry.busy && entry.running == ticket) {
      token = entry.turnToken;
    } else {
      auto queued = std::find_if(entry.queue.begin(), entry.queue.end(),
                                 [&](const Pending& pending) { return pending.ticket == ticket; });
      if (queued == entry.queue.end()) return;
      dropped.push_back(std::move(*queued));
      entry.queue.erase(queued);
    }
  }
  answerCancelled(std::move(dropped));
  token.cancel();
}

size_t SessionTable::queued(const std::string& id) const {
  std::unique_lock lock(mutex_);
  waitUntilOpened(lock, id);
  auto it = entries_.find(id);
  return it == entries_.end() ? 0 : it->second.queue.size();
}

Status SessionTable::close(const std::string& id) {
  CancelToken token;
  std::shared_ptr<Session> session;
  std::deque<Pending> dropped;
  {
    std::unique_lock lock(mutex_);
    waitUntilOpened(lock, id);
    auto it = entries_.find(id);
    if (it == entries_.end()) return noSession(id);
    token = it->second.turnToken;
    session = it->second.session;
    dropped = std::exchange(it->second.queue, {});
    entries_.erase(it);  // the turn, if any, holds the session until it ends
  }
  answerCancelled(std::move(dropped));
  session->close();
  token.cancel();
  session.reset();
  ::malloc_trim(0);  // what the session held goes back to the system, not just to the heap
  return {};
}

void SessionTable::cancelAll() {
  std::vector<CancelToken> tokens;
  std::deque<Pending> dropped;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, entry] : entries_) {
      if (entry.busy) tokens.push_back(entry.turnToken);
      for (auto& pending : entry.queue) dropped.push_back(std::move(pending));
      entry.queue.clear();
    }
  }
  answerCancelled(std::move(dropped));
  for (auto& token : tokens) token.cancel();
}

void SessionTable::shutdown() {
  std::deque<Pending> dropped;
  {
    std::lock_guard lock(mutex_);
    shuttingDown_ = true;
    for (auto& [id, entry] : entries_) {
      for (auto& pending : entry.queue) dropped.push_back(std::move(pending));
      entry.queue.clear();
    }
  }
  answerCancelled(std::move(dropped));
  turns_.cancelAll();
  turns_.join();
  // MCP servers end now, not whenever the sessions are freed.
  std::vector<std::shared_ptr<Session>> sessions;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, entry] : entries_) sessions.push_back(entry.session);
  }
  for (auto& session : sessions) {
    session->close();  // its hooks hear it (SessionEnd)
    session->mcpServers().shutdown();
  }
  waitForBackgroundHooks();  // the SessionEnd hooks of every session closed
}

}  // namespace lathe::engine
