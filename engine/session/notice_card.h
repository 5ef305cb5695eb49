// A notice for the person that is neither the agent's answer nor history: a
// card of its own (a failed tool call titled with the notice), shown live and
// never recorded, so a replay does not repeat it and `lathe run` prints it on
// stderr, never among the answer on stdout. Any thread.
#pragma once

#include <string>

#include "engine/session/editor_client.h"

namespace lathe::engine {

// `cardId` must be unique in the session (e.g. "lathe_notice_3").
void showNoticeCard(EditorClient& editor, const std::string& sessionId, const std::string& cardId,
                    const std::string& title, const std::string& message);

}  // namespace lathe::engine
