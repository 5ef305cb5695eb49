// Writing a forked session's record.
#include "engine/persistence/session_fork.h"

#include <ctime>
#include <filesystem>

#include "engine/persistence/content_codec.h"

namespace lathe::engine::persist {
namespace {

// How the recorder writes the start of a session's update: {"sessionId":ID,
std::string ownPrefix(const std::string& sessionId) {
  const std::string own = json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sessionId);
    w.EndObject();
  });
  return own.substr(0, own.size() - 1) + ",";
}

}  // namespace

std::string renamedUpdate(const std::string& shown, const std::string& from, const std::string& to) {
  const std::string prefix = ownPrefix(from);
  if (!shown.starts_with(prefix)) return shown;
  return ownPrefix(to) + shown.substr(prefix.size());
}

Status writeForkedRecord(const SessionStore& store, SessionMeta meta, const std::string& from,
                         const LoadedRecord& record) {
  std::error_code ec;
  if (std::filesystem::exists(store.dirOf(meta.id) + "/meta.json", ec)) {
    return makeError(Errc::internal, "session " + meta.id + " exists already");
  }
  auto lock = store.lock(meta.id, true);
  if (!lock) return lock.error();
  if (meta.createdAt.empty()) meta.createdAt = isoTime(std::time(nullptr));
  if (auto status = store.writeMeta(meta); !status) return status;
  auto file = store.openRecord(meta.id, 0);
  if (!file) return file.error();
  for (const std::string& shown : record.shown) {
    if (auto status = file->append("{\"u\":" + renamedUpdate(shown, from, meta.id) + "}"); !status) return status;
  }
  if (record.contents.empty()) return {};
  return file->append(json::buildObject([&](json::Writer& w) {
    json::key(w, "s");
    writeContents(w, record.contents, 0, 0);
  }));
}

}  // namespace lathe::engine::persist
