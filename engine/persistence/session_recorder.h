// Records one session as it runs: a TurnHooks that appends what the editor is
// shown (streamed message chunks joined into one record per message, by role
// and messageId; never available_commands_update nor notices) and the
// history (what is new since the last record, or the whole of it when
// History::revision() changed, e.g. after compression or a rollback). It also
// keeps the session's metadata: meta.json is written when the session is
// created or moved, when its model or effort changes or the model names it, and
// otherwise lazily, at close() (a mode change, the prompt's first line as the
// title): what it repeats of the record (the mode, the title) is caught up
// from the record when the session is opened or listed, so a crash loses
// nothing. The history is recorded before each
// model request and at the end of each turn, so a kill -9 loses at most the
// request in flight. A recording that cannot be written is logged and the
// session goes on. Thread-safe; the history is only read on the turn's thread.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/persistence/session_store.h"
#include "engine/session/history.h"
#include "engine/session/turn_hooks.h"

namespace lathe::engine::persist {

// Rebuilds a history from recorded contents through the appends, so the
// invariant holds; calls left unanswered by a crash get an error response
// (the model learns they were interrupted; nothing is shown as user text).
Result<History> rebuildHistory(std::vector<Content> contents);

// What a replay shows an editor that does not show child sessions: the
// session's own updates, without its sub-agents' sessions (their traffic
// and their subagent_update announcements); the parent's tool calls keep
// each child's report.
std::vector<std::string> withoutChildSessions(std::vector<std::string> shown, const std::string& sessionId);

class SessionRecorder final : public TurnHooks {
 public:
  // Records a new session: takes its lock and writes its metadata.
  static Result<std::shared_ptr<SessionRecorder>> create(const SessionStore& store, SessionMeta meta);

  struct Opened {
    std::shared_ptr<SessionRecorder> recorder;
    SessionMeta meta;
    History history;
    std::vector<std::string> shown;  // session/update params to replay, in order
  };
  // Opens a recorded session to go on with it: lock, metadata, record.
  static Result<Opened> open(const SessionStore& store, const std::string& id);

  ~SessionRecorder() override;

  // The session reaches its recorder only through these hooks.
  std::optional<TurnStop> beforeModelRequest(History& history, const CancelToken&) override;
  void onUpdate(const acp::SessionUpdate& update) override;
  // An update of a sub-agent's session, shown with this one's and replayed
  // with it, under the child's id. Any thread.
  void recordFor(const std::string& sessionId, const acp::SessionUpdate& update);
  void onTurnEnded(const History& history, const Result<acp::StopReason>& result) override;
  void onModeChanged(ApprovalMode mode) override { setMode(toString(mode)); }
  void onModelChanged(const std::string& model) override { setModel(model); }
  void onEffortChanged(const std::string& effort) override { setEffort(effort); }
  void onClose() override { close(); }

  // At the end of every turn, on the turn's thread. A turn that did not end
  // normally leaves `note` (e.g. that it was cancelled) for the replay: the
  // editor said so itself when it saw the stop reason.
  void turnEnded(const History& history, const std::string& note = "");
  // What the editor was shown so far, to show it again (session/load of a
  // session open here).
  Result<std::vector<std::string>> shownSoFar();
  // The record read back: all of it, or with `settled` only what was written
  // by the end of the last turn (or the opening), so a turn under way is left
  // out whole (session/fork of a busy session). Any thread.
  Result<LoadedRecord> recordSoFar(bool settled);

  // The title as it stands (meta.json may be behind).
  std::string title() const;

  void setMode(const std::string& mode);
  void setModel(const std::string& model);
  void setEffort(const std::string& effort);
  // Where the session runs now (session/load may move it), and its MCP servers.
  void setWorkspace(std::string cwd, std::vector<std::string> additionalDirectories, json::Raw mcpServers);

  // Writes what is pending and releases the session; later records are dropped.
  void close();
  uint64_t bytesWritten() const;

 private:
  SessionRecorder(const SessionStore& store, SessionMeta meta, SessionLock lock, RecordFile record);

  void sync(const History& history);
  void flushChunkLocked();
  void recordShownLocked(const std::string& sessionId, const acp::SessionUpdate& update);
  void appendLocked(std::string line);
  void writeMetaLocked();

  SessionStore store_;
  SessionLock lock_;
  mutable std::mutex mutex_;
  SessionMeta meta_;
  RecordFile record_;
  bool closed_ = false;
  bool metaDirty_ = false;  // meta_ is ahead of meta.json
  uint64_t bytesWritten_ = 0;  // by records closed before
  uint64_t recordBase_ = 0;     // the record's size when this recorder opened it
  uint64_t settledBytes_ = 0;   // its size at the end of the last turn
  bool warned_ = false;
  // The message being streamed, recorded whole when another update comes,
  // and the session it belongs to (this one's or a sub-agent's).
  std::optional<acp::MessageChunk> chunk_;
  std::string chunkSession_;
  // What of the history is recorded: contents, parts of the last, revision.
  size_t recordedContents_ = 0;
  size_t recordedLastParts_ = 0;
  uint64_t recordedRevision_ = 0;
};

}  // namespace lathe::engine::persist
