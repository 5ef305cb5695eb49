// Where recorded sessions live and how their files are read and written:
// <root>/<id>/meta.json (rewritten atomically: tmp + rename), record.jsonl
// (append-only, one JSON record per line, each written by one write(2)), and
// lock (flock'ed by the one process that has the session open). A kill -9
// can leave at most a torn last line, which is ignored and cut off before the
// next append; any other bad line is a damaged session, reported as such.
// Record lines: {"u":<session/update params>} (what the editor was shown),
// {"h":[contents],"at":N,"skip":P} (history appended from content N, the first
// one without its first P parts, which were recorded before) and
// {"s":[contents]} (the whole history again, after a rewrite).
// The store itself holds no state but its root; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/content.h"
#include "protocol/base/json.h"
#include "protocol/base/result.h"

namespace lathe::engine::persist {

struct SessionMeta {
  std::string id;
  std::string cwd;
  std::vector<std::string> additionalDirectories;
  json::Raw mcpServers;  // the servers as the editor passed them (a JSON array)
  std::string mode;
  std::string model;
  std::string effort;  // the effort picker's value; empty: the default
  std::string title;
  std::string createdAt;  // ISO 8601
  std::string updatedAt;  // ISO 8601, from the record's last write (not stored)
};

// What a session's record holds once read.
struct LoadedRecord {
  std::vector<Content> contents;   // the history as last recorded
  std::vector<std::string> shown;  // session/update params, in the order shown
  uint64_t validBytes = 0;         // up to the end of the last complete line
  bool tornTail = false;
};

// An exclusive flock on a session's lock file, released on destruction.
class SessionLock {
 public:
  SessionLock() = default;
  explicit SessionLock(int fd) : fd_(fd) {}
  SessionLock(SessionLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  SessionLock& operator=(SessionLock&& other) noexcept;
  SessionLock(const SessionLock&) = delete;
  SessionLock& operator=(const SessionLock&) = delete;
  ~SessionLock();

 private:
  int fd_ = -1;
};

// The record opened for appending.
class RecordFile {
 public:
  RecordFile() = default;
  explicit RecordFile(int fd) : fd_(fd) {}
  RecordFile(RecordFile&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  RecordFile& operator=(RecordFile&& other) noexcept;
  RecordFile(const RecordFile&) = delete;
  RecordFile& operator=(const RecordFile&) = delete;
  ~RecordFile();

  // Appends one line (given without its newline) with a single write.
  Status append(std::string line);
  uint64_t bytesWritten() const { return bytesWritten_; }

 private:
  int fd_ = -1;
  uint64_t bytesWritten_ = 0;
};

class SessionStore {
 public:
  explicit SessionStore(std::string root) : root_(std::move(root)) {}
  bool enabled() const { return !root_.empty(); }
  const std::string& root() const { return root_; }

  // Ids come from editors and name directories: only [A-Za-z0-9_-], 1..128.
  static Status checkId(const std::string& id);
  std::string dirOf(const std::string& id) const { return root_ + "/" + id; }

  // Takes the session's lock (creating its directory when `create`); fails
  // with a clear message when another process holds it.
  Result<SessionLock> lock(const std::string& id, bool create) const;

  Status writeMeta(const SessionMeta& meta) const;
  Result<SessionMeta> readMeta(const std::string& id) const;
  // Reads the record, or only its first `upTo` bytes (an end of line the
  // recorder reported: what it had written when it last settled).
  Result<LoadedRecord> readRecord(const std::string& id, uint64_t upTo = UINT64_MAX) const;
  // Opens the record for appending, first cutting it to `validBytes` (a torn tail).
  Result<RecordFile> openRecord(const std::string& id, uint64_t validBytes) const;

  // Deletes a session's files, under its lock (refused while another process
  // has it open): the folder is first renamed out of the store's names, so a
  // crash halfway leaves nothing listed or loadable. Not found: an error
  // naming the id.
  Status remove(const std::string& id) const;

  // Every readable session with a non-empty record (it was shown something), newest
  // first; damaged ones are skipped. A title meta.json does not have yet (it
  // is written lazily) is the first line of the recorded first prompt.
  std::vector<SessionMeta> list() const;

 private:
  std::string root_;
};

std::string isoTime(int64_t secondsSinceEpoch, int milliseconds = -1);

// A session's title until the model names it: the first line of the person's
// first prompt, cut (on a character) to 80 bytes.
std::string promptTitle(const std::string& text);

// The text of a recorded user_message_chunk line (session/update params), if it is one.
std::optional<std::string> userChunkText(std::string_view shownParams);

}  // namespace lathe::engine::persist
