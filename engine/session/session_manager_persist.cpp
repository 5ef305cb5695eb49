// SessionManager's recorded sessions: session/load, session/resume and
// session/list. Kept apart from the turn bookkeeping in session_manager.cpp.
#include <algorithm>
#include <charconv>
#include <filesystem>

#include "engine/persistence/session_meta.h"
#include "engine/session/session_manager.h"

namespace lathe::engine {
namespace {

Error alreadyOpen(const std::string& id) {
  return makeError(Errc::invalid_params, "params.sessionId: session " + id + " is already open in this connection");
}

// The highest tool-call number the editor was shown ("toolCallId":"call_N").
uint64_t lastCallNumber(const std::vector<std::string>& shown) {
  constexpr std::string_view key = "\"toolCallId\":\"";
  uint64_t last = 0;
  for (const std::string& params : shown) {
    for (size_t at = params.find(key); at != std::string::npos; at = params.find(key, at)) {
      at += key.size();
      size_t end = params.find('"', at);
      if (end == std::string::npos) break;
      last = std::max(last, ToolScheduler::callNumberOf(std::string_view(params).substr(at, end - at)));
    }
  }
  return last;
}

}  // namespace

Result<std::vector<std::string>> SessionManager::loadSession(const acp::LoadSessionRequest& request) {
  const std::string& id = request.sessionId;
  std::shared_ptr<persist::SessionRecorder> recorder;
  if (!store_.enabled()) return makeError(Errc::invalid_request, "sessions are not recorded here (no state directory)");
  if (auto status = persist::SessionStore::checkId(id); !status) return status.error();
  {
    std::lock_guard lock(mutex_);
    if (shuttingDown_) return makeError(Errc::internal, "the agent is shutting down");
    if (auto open = sessions_.find(id); open != sessions_.end()) {
      // Open here already (an editor that went back to it without closing
      // it): the editor is shown it again, and the session goes on as it is;
      // not while a turn runs (its updates would race the replay) nor moved.
      if (open->second.busy) {
        return makeError(Errc::invalid_params, "params.sessionId: session " + id +
                                                   " is running a prompt turn here; cancel it or wait for it to end");
      }
      std::error_code ec;
      if (open->second.session->workspace().cwd() != std::filesystem::weakly_canonical(request.cwd, ec).string()) {
        return makeError(Errc::invalid_params, "params.cwd: session " + id + " is open here with the folder " +
                                                   open->second.session->workspace().cwd());
      }
      recorder = open->second.recorder;
    }
  }
  if (recorder) return recorder->shownSoFar();
  auto workspace = workspaceFor(request.cwd, request.additionalDirectories);
  if (!workspace) return workspace.error();
  auto opened = persist::SessionRecorder::open(store_, id);
  if (!opened) return opened.error();

  auto assembled = assemble(id, *workspace);
  if (!assembled) return assembled.error();
  std::shared_ptr<Session> session = std::move(assembled).value();
  session->restoreHistory(std::move(opened->history), lastCallNumber(opened->shown));
  if (auto mode = parseApprovalMode(opened->meta.mode)) session->setMode(*mode);
  const auto& choices = session->config().modelChoices;
  const std::string& model = opened->meta.model;
  if (!model.empty() && (choices.empty() || std::find(choices.begin(), choices.end(), model) != choices.end())) {
    session->setModel(model);
  }
  opened->recorder->setWorkspace(request.cwd, request.additionalDirectories,
                                 persist::mcpServersJson(request.mcpServers));
  session->addHooks(opened->recorder);

  std::lock_guard lock(mutex_);
  if (shuttingDown_) return makeError(Errc::internal, "the agent is shutting down");
  reapRetired();
  if (sessions_.count(id)) return alreadyOpen(id);
  Entry entry;
  entry.session = session;
  entry.recorder = std::move(opened->recorder);
  sessions_.emplace(id, std::move(entry));
  session->startMcpServers(mcpServersOf(request.mcpServers, (*workspace)->cwd(), session->config()));
  return std::move(opened->shown);
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
    if (auto recorder = recorderOf(meta.id)) meta.title = recorder->title();
    response.sessions.push_back(
        {meta.id, std::move(meta.cwd), std::move(meta.additionalDirectories), std::move(meta.title), meta.updatedAt});
  }
  return response;
}

}  // namespace lathe::engine
