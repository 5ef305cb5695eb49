// Asks the person whether to install an extension from a session (/extensions
// install or link), through the editor's session/request_permission, shown
// as a tool call of its own with what the extension brings and runs. Only
// "Install" chosen is a yes: a refusal, a cancel or any error is a no.
// Runs on the turn's thread.
#pragma once

#include <string>

#include "engine/session/editor_client.h"
#include "protocol/base/cancel.h"

namespace lathe::engine {

bool askToInstall(EditorClient& editor, const std::string& sessionId, const std::string& text, const CancelToken& cancel);

}  // namespace lathe::engine
