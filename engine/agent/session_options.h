// A session's options as the editor's pickers show them (the model, the
// approval mode and, for models that think, the effort), and changing them: the session's hooks hear of a change
// (the recorder keeps it) and the editor is told.
#pragma once

#include <string>
#include <vector>

#include "engine/session/editor_client.h"
#include "engine/session/session.h"
#include "protocol/acp/config_options.h"
#include "protocol/acp/session.h"

namespace lathe::engine {

// The modes offered to the editor, in display order.
std::vector<acp::SessionMode> availableModes();

std::vector<acp::ConfigOption> optionsOf(const Session& session);

// Sets the mode and tells the editor (current_mode_update, then
// config_option_update unless the caller answers with the options itself).
void changeMode(Session& session, EditorClient& editor, ApprovalMode mode, bool announceOptions = true);

// Sets one option from the editor's picker; an unknown option or value is an
// error naming the field, changing nothing. Returns them all.
Result<std::vector<acp::ConfigOption>> setOption(Session& session, EditorClient& editor, const std::string& configId,
                                                 const std::string& value);

}  // namespace lathe::engine
