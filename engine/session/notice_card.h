// A notice for the person that is neither the agent's answer nor history
// (a retry, a setting ignored, a loop noticed, a server restarted, a hook
// that failed): an ACP `notice` when the editor presents notices
// (session.notices), else a card of its own (a failed tool call titled with
// the notice). Shown live and never recorded, so a replay does not repeat it
// and `lathe run` prints it on stderr, never among the answer on stdout.
// Give it the editor that records nothing (ObservedEditor::unobserved()).
// Any thread.
#pragma once

#include <string>

#include "engine/session/editor_client.h"

namespace lathe::engine {

void showNotice(EditorClient& editor, const std::string& sessionId, const acp::Notice& notice);

}  // namespace lathe::engine
