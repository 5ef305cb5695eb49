// SessionManager's session/fork: the original's record copied as a new
// session's (engine/persistence/session_fork.h), which is then opened as
// session/load opens a recorded session, through the factory.
#include "engine/agent/session_manager.h"

#include <filesystem>

#include "engine/persistence/session_fork.h"
#include "engine/persistence/session_meta.h"

namespace lathe::engine {

Result<SessionManager::ForkSource> SessionManager::forkSource(const std::string& id) {
  ForkSource source;
  if (auto open = table_.lookup(id)) {
    if (!open->recorder) {
      return makeError(Errc::invalid_params, "params.sessionId: session " + id + " is not recorded, so it cannot be forked");
    }
    // Busy: what its running turn wrote so far is left out, whole.
    auto record = open->recorder->recordSoFar(open->busy);
    if (!record) return record.error();
    auto meta = store_.readMeta(id);
    if (!meta) return meta.error();
    meta->title = open->recorder->title();  // meta.json may be behind
    source.meta = std::move(meta).value();
    source.record = std::move(record).value();
    return source;
  }
  // Only recorded: held while it is read, so no process opens it meanwhile.
  // One open in another process may be in the middle of a turn: refused.
  auto lock = store_.lock(id, false);
  if (!lock) return lock.error();
  auto meta = store_.readMeta(id);
  if (!meta) return meta.error();
  auto record = store_.readRecord(id);
  if (!record) return record.error();
  source.meta = std::move(meta).value();
  source.record = std::move(record).value();
  source.lock = std::move(lock).value();
  return source;
}

Status SessionManager::copySessionData(const std::string& originalId, const std::string& forkId) {
  // The fork can go back to before the prompts it was forked with, as the
  // original can: its rewinds' log (engine/rewind) comes with it, read when
  // the fork is assembled right after this. The shell outputs and plans stay
  // the original's. (A busy original's log is as its last finished turn left it.)
  namespace fs = std::filesystem;
  for (const char* file : {"rewind.json", "redo.json"}) {
    const fs::path from = fs::path(store_.dirOf(originalId)) / file;
    std::error_code ec;
    if (!fs::exists(from, ec)) continue;
    fs::copy_file(from, fs::path(store_.dirOf(forkId)) / file, fs::copy_options::overwrite_existing, ec);
    if (ec) return makeError(Errc::io, "cannot copy " + from.string() + " to the fork: " + ec.message());
  }
  return {};
}

Result<SessionManager::NewSession> SessionManager::forkSession(const acp::ForkSessionRequest& request) {
  const std::string& from = request.sessionId;
  if (!store_.enabled()) {
    return makeError(Errc::invalid_request, "sessions are not recorded here (no state directory), so none can be forked");
  }
  if (auto status = persist::SessionStore::checkId(from); !status) return status.error();
  if (table_.shuttingDown()) return makeError(Errc::internal, "the agent is shutting down");
  if (auto ready = config_.provider ? config_.provider->credentialsReady() : Status{}; !ready) return ready.error();
  // A bad cwd or root is refused before anything is written.
  if (auto workspace = workspaceFor(request.cwd, request.additionalDirectories); !workspace) return workspace.error();
  auto source = forkSource(from);
  if (!source) return source.error();

  std::string id = newId();
  auto opening = table_.beginOpening(id);
  auto undo = [&](const Error& error) -> Error {
    (void)store_.remove(id);  // nothing of a fork that failed is left listed
    return error;
  };
  persist::SessionMeta meta;
  meta.id = id;
  meta.cwd = request.cwd;
  meta.additionalDirectories = request.additionalDirectories;
  meta.mcpServers = persist::mcpServersJson(request.mcpServers);
  meta.mode = source->meta.mode;
  meta.model = source->meta.model;
  meta.effort = source->meta.effort;
  meta.title = source->meta.title;
  if (auto status = persist::writeForkedRecord(store_, std::move(meta), from, source->record); !status) {
    return undo(status.error());
  }
  if (auto status = copySessionData(from, id); !status) return undo(status.error());
  source->lock = persist::SessionLock{};  // the original is copied: free for others
  auto record = persist::SessionRecorder::open(store_, id);
  if (!record) return undo(record.error());
  auto assembled =
      factory_.assemble({id, request.cwd, request.additionalDirectories, request.mcpServers, std::move(record).value()});
  if (!assembled) return undo(assembled.error());
  if (auto status = open(id, *assembled); !status) {
    if (assembled->recorder) assembled->recorder->close();  // lets go of the fork's lock
    return undo(status.error());
  }
  return NewSession{std::move(id), std::move(opening)};
}

}  // namespace lathe::engine
