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
  Entry& entry = it->second;
  if (entry.busy) return makeError(Errc::invalid_request, "session " + id + " is already running a prompt turn");
  auto token = turns_.post([this, id, session = entry.session, turn = std::move(turn),
                            done = std::move(done)](const CancelToken& cancel) {
    Result<acp::StopReason> result = makeError(Errc::internal, "the turn ended unexpectedly");
    try {
      result = turn(*session, cancel);
    } catch (const std::exception& e) {
      result = makeError(Errc::internal, std::string("internal error during the turn: ") + e.what());
    }
    bool idle;
    {
      std::lock_guard inner(mutex_);
      if (auto own = entries_.find(id); own != entries_.end() && own->second.session == session) {
        own->second.busy = false;
      }
      idle = !anyBusy();
    }
    done(std::move(result));
    // The last turn of a burst hands its threads' heap arenas back to the system.
    if (idle) ::malloc_trim(0);
  });
  if (!token) return shuttingDownError();
  entry.busy = true;
  entry.turnToken = *token;
  return {};
}

Status SessionTable::cancel(const std::string& id) {
  CancelToken token;
  {
    std::unique_lock lock(mutex_);
    waitUntilOpened(lock, id);
    auto it = entries_.find(id);
    if (it == entries_.end()) return noSession(id);
    if (!it->second.busy) return {};
    token = it->second.turnToken;
  }
  token.cancel();  // outside the lock: cancel callbacks may take a moment
  return {};
}

Status SessionTable::close(const std::string& id) {
  CancelToken token;
  std::shared_ptr<Session> session;
  {
    std::unique_lock lock(mutex_);
    waitUntilOpened(lock, id);
    auto it = entries_.find(id);
    if (it == entries_.end()) return noSession(id);
    token = it->second.turnToken;
    session = it->second.session;
    entries_.erase(it);  // the turn, if any, holds the session until it ends
  }
  session->close();
  token.cancel();
  session.reset();
  ::malloc_trim(0);  // what the session held goes back to the system, not just to the heap
  return {};
}

void SessionTable::cancelAll() {
  std::vector<CancelToken> tokens;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, entry] : entries_) {
      if (entry.busy) tokens.push_back(entry.turnToken);
    }
  }
  for (auto& token : tokens) token.cancel();
}

void SessionTable::shutdown() {
  {
    std::lock_guard lock(mutex_);
    shuttingDown_ = true;
  }
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
