// A forked session's files: a new session in the store whose record is a
// copy of another's as read (session/fork). Any thread.
#pragma once

#include <string>

#include "engine/persistence/session_store.h"

namespace lathe::engine::persist {

// Writes session `meta.id` (new: its folder must not hold a session yet):
// its meta.json, and a record holding what `from` showed, in order, the
// session's own updates under the new id (its sub-agents' keep theirs), then
// `from`'s history as one snapshot. Opened with SessionRecorder::open, it
// replays and goes on like any recorded session.
Status writeForkedRecord(const SessionStore& store, SessionMeta meta, const std::string& from,
                         const LoadedRecord& record);

// One recorded update (session/update params) of session `from`, renamed to
// session `to`; any other session's (a sub-agent's) is returned as it is.
std::string renamedUpdate(const std::string& shown, const std::string& from, const std::string& to);

}  // namespace lathe::engine::persist
