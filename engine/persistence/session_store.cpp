// Session files: layout, lock, meta and the append-only record.
#include "engine/persistence/session_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/persistence/content_codec.h"

namespace lathe::engine::persist {
namespace {

namespace fs = std::filesystem;

Error sysError(const std::string& what) { return makeError(Errc::internal, what + ": " + std::strerror(errno)); }

Error damaged(const std::string& id, const std::string& what) {
  return makeError(Errc::invalid_params, "session " + id + " is damaged (" + what + "); it cannot be loaded");
}

// Milliseconds, so that sessions written within one second still list in order.
std::string mtimeOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  return isoTime(st.st_mtim.tv_sec, static_cast<int>(st.st_mtim.tv_nsec / 1000000));
}

Result<std::string> readWhole(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return sysError("cannot open " + path);
  std::string text;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) text.reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return sysError("cannot read " + path);
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return text;
}

// Applies one history record to the contents read so far.
Status applyHistory(std::vector<Content>& contents, json::Reader& r, bool snapshot) {
  std::vector<Content> read;
  for (auto& item : r.array(snapshot ? "s" : "h")) read.push_back(readContent(item));
  if (!r.ok()) return r.error();
  if (snapshot) {
    contents = std::move(read);
    return {};
  }
  auto at = static_cast<size_t>(r.int64("at"));
  auto skip = static_cast<size_t>(r.optInt64("skip").value_or(0));
  if (!r.ok()) return r.error();
  auto first = read.begin();
  if (skip > 0) {
    if (contents.empty() || at != contents.size() - 1 || contents[at].parts.size() != skip || read.empty() ||
        read.front().role != contents[at].role) {
      return makeError(Errc::invalid_params, "history record does not continue the history");
    }
    auto& parts = contents[at].parts;
    parts.insert(parts.end(), std::make_move_iterator(first->parts.begin()), std::make_move_iterator(first->parts.end()));
    ++first;
  } else if (at != contents.size()) {
    return makeError(Errc::invalid_params, "history record does not continue the history");
  }
  contents.insert(contents.end(), std::make_move_iterator(first), std::make_move_iterator(read.end()));
  return {};
}

Status applyLine(LoadedRecord& record, std::string_view line) {
  auto doc = json::parse(line);
  if (!doc) return doc.error();
  if (!doc->IsObject()) return makeError(Errc::invalid_params, "a record must be an object");
  constexpr std::string_view kShown = "{\"u\":";
  if (line.substr(0, kShown.size()) == kShown && line.back() == '}') {
    // The update is kept as the exact text shown, not re-encoded.
    record.shown.emplace_back(line.substr(kShown.size(), line.size() - kShown.size() - 1));
    return {};
  }
  auto r = json::Reader::root(*doc, "record");
  if (r.has("s")) return applyHistory(record.contents, r, true);
  if (r.has("h")) return applyHistory(record.contents, r, false);
  return makeError(Errc::invalid_params, "unknown record kind");
}

}  // namespace

std::string isoTime(int64_t secondsSinceEpoch, int milliseconds) {
  std::time_t t = static_cast<std::time_t>(secondsSinceEpoch);
  std::tm tm {};
  ::gmtime_r(&t, &tm);
  char text[40];
  size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
  if (milliseconds >= 0) std::snprintf(text + n, sizeof text - n, ".%03dZ", milliseconds);
  else std::snprintf(text + n, sizeof text - n, "Z");
  return text;
}

SessionLock& SessionLock::operator=(SessionLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

SessionLock::~SessionLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases the flock
}

RecordFile& RecordFile::operator=(RecordFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    bytesWritten_ = other.bytesWritten_;
    other.fd_ = -1;
  }
  return *this;
}

RecordFile::~RecordFile() {
  if (fd_ >= 0) ::close(fd_);
}

Status RecordFile::append(std::string line) {
  if (fd_ < 0) return makeError(Errc::internal, "the session record is not open");
  line.push_back('\n');
  size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return sysError("cannot append to the session record");
    done += static_cast<size_t>(n);
  }
  bytesWritten_ += line.size();
  return {};
}

Status SessionStore::checkId(const std::string& id) {
  bool fine = !id.empty() && id.size() <= 128 && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  if (!fine) return makeError(Errc::invalid_params, "params.sessionId: not a session id Lathe could have made");
  return {};
}

Result<SessionLock> SessionStore::lock(const std::string& id, bool create) const {
  if (auto status = checkId(id); !status) return status.error();
  std::string dir = dirOf(id);
  if (create) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    // The metadata holds the MCP servers' env and headers (tokens): owner only.
    if (!ec) fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
    if (ec) return makeError(Errc::internal, "cannot create " + dir + ": " + ec.message());
  } else if (!fs::is_directory(dir)) {
    return makeError(Errc::not_found, "params.sessionId: no recorded session \"" + id + "\"");
  }
  int fd = ::open((dir + "/lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return sysError("cannot open the lock of session " + id);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    // Not an invalid request: the request was fine, the session is busy elsewhere.
    return makeError(Errc::invalid_params,
                     "params.sessionId: session " + id + " is open in another Lathe process; close it there first");
  }
  return SessionLock(fd);
}

Status SessionStore::writeMeta(const SessionMeta& meta) const {
  std::string text = json::buildObject([&](json::Writer& w) {
    json::put(w, "version", 1);
    json::put(w, "sessionId", meta.id);
    json::put(w, "cwd", meta.cwd);
    json::array(w, "additionalDirectories", [&] {
      for (const auto& dir : meta.additionalDirectories) json::str(w, dir);
    });
    json::put(w, "mcpServers", meta.mcpServers.empty() ? json::Raw{"[]"} : meta.mcpServers);
    json::put(w, "mode", meta.mode);
    json::put(w, "model", meta.model);
    if (!meta.effort.empty()) json::put(w, "effort", meta.effort);
    json::put(w, "title", meta.title);
    json::put(w, "createdAt", meta.createdAt);
  });
  std::string path = dirOf(meta.id) + "/meta.json";
  std::string temp = path + ".tmp";
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return sysError("cannot write " + temp);
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return sysError("cannot write " + temp);
    }
    done += static_cast<size_t>(n);
  }
  // The new metadata must be whole on disk before it replaces the old.
  if (::fsync(fd) != 0 || ::close(fd) != 0) return sysError("cannot write " + temp);
  if (::rename(temp.c_str(), path.c_str()) != 0) return sysError("cannot replace " + path);
  return {};
}

Result<SessionMeta> SessionStore::readMeta(const std::string& id) const {
  if (auto status = checkId(id); !status) return status.error();
  std::string path = dirOf(id) + "/meta.json";
  if (!fs::exists(path)) return makeError(Errc::not_found, "params.sessionId: no recorded session \"" + id + "\"");
  auto text = readWhole(path);
  if (!text) return text.error();
  auto doc = json::parse(*text);
  if (!doc) return damaged(id, "meta.json: " + doc.error().message);
  auto r = json::Reader::root(*doc, "meta");
  SessionMeta meta;
  meta.id = r.str("sessionId");
  meta.cwd = r.str("cwd");
  meta.additionalDirectories = r.optStrings("additionalDirectories").value_or(std::vector<std::string>{});
  meta.mcpServers = r.rawMember("mcpServers");
  meta.mode = r.optStr("mode").value_or("");
  meta.model = r.optStr("model").value_or("");
  meta.effort = r.optStr("effort").value_or("");
  meta.title = r.optStr("title").value_or("");
  meta.createdAt = r.optStr("createdAt").value_or("");
  if (!r.ok()) return damaged(id, "meta.json: " + r.error().message);
  if (meta.id != id) return damaged(id, "meta.json names another session");
  meta.updatedAt = mtimeOf(dirOf(id) + "/record.jsonl");
  if (meta.updatedAt.empty()) meta.updatedAt = meta.createdAt;
  return meta;
}

Result<LoadedRecord> SessionStore::readRecord(const std::string& id, uint64_t upTo) const {
  std::string path = dirOf(id) + "/record.jsonl";
  LoadedRecord record;
  if (!fs::exists(path)) return record;  // created, never prompted
  auto text = readWhole(path);
  if (!text) return text.error();
  std::string_view all = *text;
  if (upTo < all.size()) all = all.substr(0, static_cast<size_t>(upTo));
  size_t lineNumber = 0;
  while (record.validBytes < all.size()) {
    size_t end = all.find('\n', record.validBytes);
    if (end == std::string_view::npos) {
      record.tornTail = true;  // a write cut short by a crash: never acknowledged, so dropped
      break;
    }
    ++lineNumber;
    std::string_view line = all.substr(record.validBytes, end - record.validBytes);
    if (auto status = applyLine(record, line); !status) {
      return damaged(id, "record.jsonl line " + std::to_string(lineNumber) + ": " + status.error().message);
    }
    record.validBytes = end + 1;
  }
  return record;
}

Result<RecordFile> SessionStore::openRecord(const std::string& id, uint64_t validBytes) const {
  std::string path = dirOf(id) + "/record.jsonl";
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return sysError("cannot open " + path);
  struct stat st {};
  if (::fstat(fd, &st) == 0 && static_cast<uint64_t>(st.st_size) > validBytes &&
      ::ftruncate(fd, static_cast<off_t>(validBytes)) != 0) {
    ::close(fd);
    return sysError("cannot cut the torn tail of " + path);
  }
  return RecordFile(fd);
}

Status SessionStore::remove(const std::string& id) const {
  auto lock = this->lock(id, false);
  if (!lock) return lock.error();
  // Not a name checkId accepts: never listed nor loaded, whatever is left of it.
  const std::string doomed = root_ + "/.deleted-" + id;
  std::error_code ec;
  fs::remove_all(doomed, ec);  // what an earlier delete left behind
  if (::rename(dirOf(id).c_str(), doomed.c_str()) != 0) return sysError("cannot delete session " + id);
  fs::remove_all(doomed, ec);
  if (ec) return makeError(Errc::internal, "session " + id + " is deleted, but its files could not all be removed: " + ec.message());
  return {};
}

std::string promptTitle(const std::string& text) {
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return "";
  std::string line = text.substr(start, text.find('\n', start) - start);
  if (line.size() > 80) {
    size_t cut = 80;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
    line = line.substr(0, cut) + "…";
  }
  return line;
}

std::optional<std::string> userChunkText(std::string_view shownParams) {
  if (shownParams.find("\"user_message_chunk\"") == std::string_view::npos) return std::nullopt;
  auto doc = json::parse(shownParams);
  const json::Value* update = doc && doc->IsObject() ? json::find(*doc, "update") : nullptr;
  if (!update || !update->IsObject() || json::getStr(*update, "sessionUpdate") != "user_message_chunk") return std::nullopt;
  const json::Value* content = json::find(*update, "content");
  if (!content || !content->IsObject()) return std::nullopt;
  return json::getStr(*content, "text");
}

namespace {

// The title of a session whose meta.json has none yet: read from its record
// up to the first prompt.
std::string titleFromRecord(const std::string& recordPath) {
  std::ifstream record(recordPath, std::ios::binary);
  constexpr std::string_view kShown = "{\"u\":";
  for (std::string line; std::getline(record, line);) {
    if (!line.starts_with(kShown) || line.back() != '}') continue;
    if (auto text = userChunkText(std::string_view(line).substr(kShown.size(), line.size() - kShown.size() - 1))) {
      return promptTitle(*text);
    }
  }
  return "";
}

}  // namespace

std::vector<SessionMeta> SessionStore::list() const {
  std::vector<SessionMeta> sessions;
  std::error_code ec;
  if (!enabled() || !fs::is_directory(root_, ec)) return sessions;
  for (const auto& entry : fs::directory_iterator(root_, ec)) {
    std::string id = entry.path().filename().string();
    // A session never prompted has nothing to resume (Gemini CLI also lists
    // only sessions with a user message); it stays loadable by its id.
    if (!checkId(id) || !fs::exists(entry.path() / "meta.json")) continue;
    if (auto size = fs::file_size(entry.path() / "record.jsonl", ec); ec || size == 0) continue;
    auto meta = readMeta(id);
    if (!meta) continue;
    if (meta->title.empty()) meta->title = titleFromRecord((entry.path() / "record.jsonl").string());
    sessions.push_back(std::move(meta).value());
  }
  std::sort(sessions.begin(), sessions.end(), [](const SessionMeta& a, const SessionMeta& b) {
    return a.updatedAt != b.updatedAt ? a.updatedAt > b.updatedAt : a.id < b.id;
  });
  return sessions;
}

}  // namespace lathe::engine::persist
