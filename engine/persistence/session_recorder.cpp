// Recording a session's history and what it showed.
#include "engine/persistence/session_recorder.h"

#include <ctime>

#include "engine/persistence/content_codec.h"
#include "engine/session/message_id.h"
#include "protocol/base/log.h"

namespace lathe::engine::persist {
namespace {

Part interruptedResponse(const FunctionCall& call) {
  Part part;
  part.functionResponse = FunctionResponse{call.id, call.name, json::Raw{json::buildObject([](json::Writer& w) {
                                             json::put(w, "error",
                                                       "The agent stopped before this call finished; its outcome is "
                                                       "unknown.");
                                           })}};
  return part;
}

// meta.json is written lazily; what it repeats of the record (the mode and the
// title) is taken from the record, which a crash never leaves behind it.
bool catchUpWithRecord(SessionMeta& meta, const std::vector<std::string>& shown) {
  std::string mode = meta.mode, title = meta.title, firstPrompt;
  bool modelTitled = false;
  for (const std::string& line : shown) {
    if (firstPrompt.empty()) {
      if (auto text = userChunkText(line)) firstPrompt = promptTitle(*text);
    }
    const bool modeLine = line.find("\"current_mode_update\"") != std::string::npos;
    const bool infoLine = line.find("\"session_info_update\"") != std::string::npos;
    if (!modeLine && !infoLine) continue;
    auto doc = json::parse(line);
    const json::Value* update = doc && doc->IsObject() ? json::find(*doc, "update") : nullptr;
    if (!update || !update->IsObject()) continue;
    const std::string kind = json::getStr(*update, "sessionUpdate").value_or("");
    if (kind == "current_mode_update") mode = json::getStr(*update, "currentModeId").value_or(mode);
    if (kind == "session_info_update") {
      if (auto named = json::getStr(*update, "title")) {
        title = *named;
        modelTitled = true;
      }
    }
  }
  if (!modelTitled && title.empty()) title = firstPrompt;
  const bool changed = mode != meta.mode || title != meta.title;
  meta.mode = std::move(mode);
  meta.title = std::move(title);
  return changed;
}

// What a replay shows where the editor, seeing the stop reason, marked the
// end of a turn itself; nothing for a turn that ended normally.
std::string replayNoteFor(const Result<acp::StopReason>& result) {
  if (!result) return "\n\n*The turn failed: " + result.error().message + "*\n";
  switch (*result) {
    case acp::StopReason::end_turn: return "";
    case acp::StopReason::cancelled: return "\n\n*Cancelled.*\n";
    default: return std::string("\n\n*The turn ended: ") + acp::toString(*result) + ".*\n";
  }
}

}  // namespace

std::vector<std::string> withoutChildSessions(std::vector<std::string> shown, const std::string& sessionId) {
  // Records are written as {"sessionId":ID,"update":{"sessionUpdate":KIND,...}}.
  const std::string own = json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sessionId);
    w.EndObject();
  });
  const std::string prefix = own.substr(0, own.size() - 1) + ",\"update\":{\"sessionUpdate\":";
  std::erase_if(shown, [&](const std::string& line) {
    return !line.starts_with(prefix) || line.compare(prefix.size(), 17, "\"subagent_update\"") == 0;
  });
  return shown;
}

Result<History> rebuildHistory(std::vector<Content> contents) {
  History history;
  for (Content& content : contents) {
    Status status;
    bool answers = false;
    for (const Part& part : content.parts) answers = answers || part.functionResponse.has_value();
    if (content.role == Role::model) {
      status = history.appendModel(std::move(content));
    } else if (answers) {
      status = history.appendResponses(std::move(content.parts));
    } else if (!history.pendingCalls().empty()) {
      // A crash between a call and its response: answer it, then the prompt.
      std::vector<Part> parts;
      for (const auto& call : history.pendingCalls()) parts.push_back(interruptedResponse(call));
      if (status = history.appendResponses(std::move(parts)); status) status = history.appendUser(std::move(content.parts));
    } else {
      status = history.appendUser(std::move(content.parts));
    }
    if (!status) return makeError(Errc::invalid_params, "recorded history: " + status.error().message);
  }
  if (!history.pendingCalls().empty()) {
    std::vector<Part> parts;
    for (const auto& call : history.pendingCalls()) parts.push_back(interruptedResponse(call));
    if (auto status = history.appendResponses(std::move(parts)); !status) return status.error();
  }
  return history;
}

SessionRecorder::SessionRecorder(const SessionStore& store, SessionMeta meta, SessionLock lock, RecordFile record)
    : store_(store), lock_(std::move(lock)), meta_(std::move(meta)), record_(std::move(record)) {}

SessionRecorder::~SessionRecorder() { close(); }

Result<std::shared_ptr<SessionRecorder>> SessionRecorder::create(const SessionStore& store, SessionMeta meta) {
  auto lock = store.lock(meta.id, true);
  if (!lock) return lock.error();
  if (meta.createdAt.empty()) meta.createdAt = isoTime(std::time(nullptr));
  if (auto status = store.writeMeta(meta); !status) return status.error();
  auto record = store.openRecord(meta.id, 0);
  if (!record) return record.error();
  return std::shared_ptr<SessionRecorder>(
      new SessionRecorder(store, std::move(meta), std::move(lock).value(), std::move(record).value()));
}

Result<SessionRecorder::Opened> SessionRecorder::open(const SessionStore& store, const std::string& id) {
  auto lock = store.lock(id, false);
  if (!lock) return lock.error();
  auto meta = store.readMeta(id);
  if (!meta) return meta.error();
  auto record = store.readRecord(id);
  if (!record) return record.error();
  if (record->tornTail) log(LogLevel::warn, "session " + id + ": the record's torn last line (a crash) is dropped");
  size_t contents = record->contents.size();
  size_t lastParts = contents ? record->contents.back().parts.size() : 0;
  auto history = rebuildHistory(std::move(record->contents));
  if (!history) return makeError(Errc::invalid_params, "session " + id + " is damaged (" + history.error().message + ")");
  auto file = store.openRecord(id, record->validBytes);
  if (!file) return file.error();
  const bool stale = catchUpWithRecord(*meta, record->shown);
  Opened opened;
  opened.recorder = std::shared_ptr<SessionRecorder>(
      new SessionRecorder(store, *meta, std::move(lock).value(), std::move(file).value()));
  opened.recorder->metaDirty_ = stale;
  opened.recorder->recordBase_ = opened.recorder->settledBytes_ = record->validBytes;
  // What was recorded; answers added for interrupted calls are recorded with the next turn.
  opened.recorder->recordedContents_ = contents;
  opened.recorder->recordedLastParts_ = lastParts;
  opened.recorder->recordedRevision_ = history->revision();
  opened.meta = std::move(meta).value();
  opened.history = std::move(history).value();
  opened.shown = std::move(record->shown);
  return opened;
}

void SessionRecorder::appendLocked(std::string line) {
  if (closed_) return;
  if (auto status = record_.append(std::move(line)); !status && !warned_) {
    warned_ = true;  // once: a full disk must not flood the log
    log(LogLevel::warn, "session " + meta_.id + " is no longer recorded: " + status.error().message);
  }
}

void SessionRecorder::writeMetaLocked() {
  if (closed_) return;
  metaDirty_ = false;
  if (auto status = store_.writeMeta(meta_); !status) log(LogLevel::warn, status.error().message);
}

std::string SessionRecorder::title() const {
  std::lock_guard lock(mutex_);
  return meta_.title;
}

void SessionRecorder::flushChunkLocked() {
  if (!chunk_) return;
  acp::MessageChunk chunk = std::move(*chunk_);
  chunk_.reset();
  appendLocked("{\"u\":" + acp::sessionNotification(chunkSession_, chunk).text + "}");
}

void SessionRecorder::recordShownLocked(const std::string& sessionId, const acp::SessionUpdate& update) {
  if (auto* chunk = std::get_if<acp::MessageChunk>(&update)) {
    if (chunk_ && chunkSession_ == sessionId && chunk_->role == chunk->role && chunk_->messageId == chunk->messageId) {
      chunk_->text += chunk->text;
      return;
    }
    flushChunkLocked();
    chunk_ = *chunk;
    chunkSession_ = sessionId;
    return;
  }
  flushChunkLocked();
  appendLocked("{\"u\":" + acp::sessionNotification(sessionId, update).text + "}");
}

void SessionRecorder::recordFor(const std::string& sessionId, const acp::SessionUpdate& update) {
  std::lock_guard lock(mutex_);
  recordShownLocked(sessionId, update);
}

void SessionRecorder::onUpdate(const acp::SessionUpdate& update) {
  // The command set is the running process's (its MCP servers, its build):
  // a loaded session announces its own, so an old one is never replayed,
  // and announcing it does not make a never-prompted session non-empty.
  if (std::holds_alternative<acp::AvailableCommandsUpdate>(update)) return;
  // Notices are live events, never history (notice_card.h).
  if (std::holds_alternative<acp::Notice>(update)) return;
  std::lock_guard lock(mutex_);
  if (auto* chunk = std::get_if<acp::MessageChunk>(&update)) {
    if (chunk->role == acp::MessageChunk::Role::user && meta_.title.empty()) {
      meta_.title = promptTitle(chunk->text);
      metaDirty_ = metaDirty_ || !meta_.title.empty();
    }
  }
  if (auto* info = std::get_if<acp::SessionInfoUpdate>(&update); info && info->title && *info->title != meta_.title) {
    meta_.title = *info->title;  // the model's title replaces the first line of the prompt
    writeMetaLocked();            // once a session, after the answer (a follow-up): listed at once everywhere
  }
  recordShownLocked(meta_.id, update);
}

void SessionRecorder::sync(const History& history) {
  const auto& contents = history.contents();
  const size_t lastParts = contents.empty() ? 0 : contents.back().parts.size();
  std::string line;
  if (history.revision() != recordedRevision_ || contents.size() < recordedContents_ ||
      (recordedContents_ > 0 && contents[recordedContents_ - 1].parts.size() < recordedLastParts_)) {
    line = json::buildObject([&](json::Writer& w) {
      json::key(w, "s");
      writeContents(w, contents, 0, 0);
    });
  } else {
    const bool grew = recordedContents_ > 0 && contents[recordedContents_ - 1].parts.size() > recordedLastParts_;
    if (!grew && contents.size() == recordedContents_) return;
    const size_t at = grew ? recordedContents_ - 1 : recordedContents_;
    const size_t skip = grew ? recordedLastParts_ : 0;
    line = json::buildObject([&](json::Writer& w) {
      json::key(w, "h");
      writeContents(w, contents, at, skip);
      json::put(w, "at", static_cast<int64_t>(at));
      if (skip) json::put(w, "skip", static_cast<int64_t>(skip));
    });
  }
  recordedContents_ = contents.size();
  recordedLastParts_ = lastParts;
  recordedRevision_ = history.revision();
  std::lock_guard lock(mutex_);
  flushChunkLocked();
  appendLocked(std::move(line));
}

std::optional<TurnStop> SessionRecorder::beforeModelRequest(History& history, const CancelToken&) {
  sync(history);
  return std::nullopt;
}

void SessionRecorder::onTurnEnded(const History& history, const Result<acp::StopReason>& result) {
  turnEnded(history, replayNoteFor(result));
}

void SessionRecorder::turnEnded(const History& history, const std::string& note) {
  sync(history);
  std::lock_guard lock(mutex_);
  flushChunkLocked();
  if (!note.empty()) {
    chunk_ = acp::MessageChunk{acp::MessageChunk::Role::agent, note, newMessageId()};
    chunkSession_ = meta_.id;
    flushChunkLocked();
  }
  settledBytes_ = recordBase_ + record_.bytesWritten();
}

Result<std::vector<std::string>> SessionRecorder::shownSoFar() {
  auto record = recordSoFar(false);
  if (!record) return record.error();
  return std::move(record->shown);
}

Result<LoadedRecord> SessionRecorder::recordSoFar(bool settled) {
  uint64_t upTo = UINT64_MAX;
  {
    std::lock_guard lock(mutex_);
    // A message being streamed stays whole: it is past the settled end anyway.
    if (settled) upTo = settledBytes_;
    else flushChunkLocked();
  }
  return store_.readRecord(meta_.id, upTo);
}

void SessionRecorder::setMode(const std::string& mode) {
  std::lock_guard lock(mutex_);
  if (mode == meta_.mode) return;
  meta_.mode = mode;
  metaDirty_ = true;  // the record below carries it until meta.json is written
  flushChunkLocked();
  appendLocked("{\"u\":" + acp::sessionNotification(meta_.id, acp::CurrentModeUpdate{mode}).text + "}");
}

void SessionRecorder::setModel(const std::string& model) {
  std::lock_guard lock(mutex_);
  if (model == meta_.model) return;
  meta_.model = model;
  writeMetaLocked();
}

void SessionRecorder::setEffort(const std::string& effort) {
  std::lock_guard lock(mutex_);
  if (effort == meta_.effort) return;
  meta_.effort = effort;
  writeMetaLocked();
}

void SessionRecorder::setWorkspace(std::string cwd, std::vector<std::string> additionalDirectories,
                                   json::Raw mcpServers) {
  std::lock_guard lock(mutex_);
  meta_.cwd = std::move(cwd);
  meta_.additionalDirectories = std::move(additionalDirectories);
  meta_.mcpServers = std::move(mcpServers);
  writeMetaLocked();
}

void SessionRecorder::close() {
  std::lock_guard lock(mutex_);
  flushChunkLocked();
  if (metaDirty_) writeMetaLocked();
  closed_ = true;
  bytesWritten_ += record_.bytesWritten();
  // Nothing is written after this, so another process may open the session
  // at once, even while a cancelled turn of ours is still ending.
  record_ = RecordFile{};
  lock_ = SessionLock{};
}

uint64_t SessionRecorder::bytesWritten() const {
  std::lock_guard lock(mutex_);
  return bytesWritten_ + record_.bytesWritten();
}

}  // namespace lathe::engine::persist
