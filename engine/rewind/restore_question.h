// Before a rewind or a redo writes anything, the person sees each file that
// would change (a card of diffs: what it holds now, what it gets; files
// changed since by someone else named) and chooses: restore, restore
// overwriting the changes made since (offered only when there are some), or
// cancel. Any failure to get an answer is a cancel.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/rewind/file_restore.h"
#include "engine/session/editor_client.h"

namespace lathe::engine {

class Session;

// nullopt: cancelled; otherwise whether files changed since are overwritten too.
std::optional<bool> askToRestore(Session& session, EditorClient& editor, const std::string& title,
                                 const std::vector<FileNow>& files, const CancelToken& cancel);

}  // namespace lathe::engine
