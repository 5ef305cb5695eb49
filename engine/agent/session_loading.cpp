// SessionManager's recorded sessions: session/load, session/resume and
// session/list.
#include <algorithm>
#include <charconv>
#include <filesystem>

#include "engine/agent/session_manager.h"

namespace lathe::engine {
namespace {

// What the editor can be shown again of session `id`: compactions and child
// sessions only to editors that advertise them (an editor without them was
// told nothing of them anyway).
std::vector<std::string> replayable(std::vector<std::string> shown, const acp::ClientCapabilities& editor,
                                    const std::string& id) {
  if (!editor.subagents) shown = persist::withoutChildSessions(std::move(shown), id);
  if (editor.compaction) return shown;
  std::erase_if(shown, [](const std::string& params) {
    if (params.find("\"compaction_") == std::string::npos) return false;
    auto doc = json::parse(params);
    const json::Value* update = doc && doc->IsObject() ? json::find(*doc, "update") : nullptr;
    return update && json::getStr(*update, "sessionUpdate").value_or("").starts_with("compaction_");
  });
  return shown;
}

}  // namespace

Result<std::vector<std::string>> SessionManager::loadSession(const acp::LoadSessionRequest& request) {
  const std::string& id = request.sessionId;
  if (!store_.enabled()) return makeError(Errc::invalid_request, "sessions are not recorded here (no state directory)");
  if (auto status = persist::SessionStore::checkId(id); !status) return status.error();
  if (table_.shuttingDown()) return makeError(Errc::internal, "the agent is shutting down");
  if (auto open = table_.lookup(id)) {
    // Open here already (an editor that went back to it without closing
    // it): the editor is shown it again, and the session goes on as it is;
    // not while a turn runs (its updates would race the replay) nor moved.
    if (open->busy) {
      return makeError(Errc::invalid_params, "params.sessionId: session " + id +
                                                 " is running a prompt turn here; cancel it or wait for it to end");
    }
    std::error_code ec;
    if (open->session->workspace().cwd() != std::filesystem::weakly_canonical(request.cwd, ec).string()) {
      return makeError(Errc::invalid_params, "params.cwd: session " + id + " is open here with the folder " +
                                                 open->session->workspace().cwd());
    }
    if (open->recorder) {
      auto shown = open->recorder->shownSoFar();
      if (!shown) return shown.error();
      return replayable(std::move(shown).value(), editor_.capabilities(), id);
    }
  }
  if (auto workspace = workspaceFor(request.cwd, request.additionalDirectories); !workspace) return workspace.error();
  auto record = persist::SessionRecorder::open(store_, id);
  if (!record) return record.error();
  auto assembled =
      factory_.assemble({id, request.cwd, request.additionalDirectories, request.mcpServers, std::move(record).value()});
  if (!assembled) return assembled.error();
  if (auto status = open(id, *assembled); !status) return status.error();
  return replayable(std::move(assembled->shown), editor_.capabilities(), id);
}

Status SessionManager::deleteSession(const std::string& id) {
  if (!store_.enabled()) return makeError(Errc::invalid_request, "sessions are not recorded here (no state directory)");
  if (auto status = persist::SessionStore::checkId(id); !status) return status;
  if (auto open = table_.lookup(id)) {
    if (open->busy) {
      return makeError(Errc::invalid_params, "params.sessionId: session " + id +
                                                 " is running a prompt turn here; cancel it or wait for it to end");
    }
    // Closed first: its recorder lets go of the record and the lock.
    if (auto closed = table_.close(id); !closed) return closed;
  }
  return store_.remove(id);
}

Result<acp::ListSessionsResponse> SessionManager::listSessions(const acp::ListSessionsRequest& request) const {
  size_t offset = 0;
  if (request.cursor) {
    const std::string& cursor = *request.cursor;
    auto [end, error] = std::from_chars(cursor.data(), cursor.data() + cursor.size(), offset);
    if (error != std::errc{} || end != cursor.data() + cursor.size()) {
      return makeError(Errc::invalid_params, "params.cursor: not a cursor this agent gave");
    }
  }
  const size_t page = std::max<size_t>(config_.sessionListPage, 1);
  acp::ListSessionsResponse response;
  size_t index = 0;
  for (auto& meta : store_.list()) {
    if (request.cwd && meta.cwd != *request.cwd) continue;
    if (index++ < offset) continue;
    if (response.sessions.size() == page) {
      response.nextCursor = std::to_string(offset + page);
      break;
    }
    // meta.json is written lazily: an open session's recorder knows its title as it stands.
    if (auto recorder = table_.recorderOf(meta.id)) meta.title = recorder->title();
    response.sessions.push_back(
        {meta.id, std::move(meta.cwd), std::move(meta.additionalDirectories), std::move(meta.title), meta.updatedAt});
  }
  return response;
}

}  // namespace lathe::engine
