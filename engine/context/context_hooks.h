// Adds a session's context management hooks (context_manager.h, and
// loop_detector.h unless loop detection is off, session_title.h) and the
// /compress command. Call before the first turn.
#pragma once

#include "engine/commands/command_registry.h"
#include "engine/context/context_manager.h"
#include "engine/session/session.h"

namespace lathe::engine {

void addContextHooks(Session& session, CommandRegistry& commands);
// Compression and output budgets, and loop detection unless it is off: what
// a sub-agent's session has of them (no commands, no title).
ContextManager& addContextManagement(Session& session);

}  // namespace lathe::engine
