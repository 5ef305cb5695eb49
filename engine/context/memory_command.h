// The /memory command of a session: show, list and reload its context files
// (GEMINI.md), and add a fact to the global memory file. Adding needs no
// question: the person typed it. Call before the first turn.
#pragma once

#include "engine/commands/command_registry.h"
#include "engine/session/session.h"

namespace lathe::engine {

void addMemoryCommand(Session& session, CommandRegistry& commands);

}  // namespace lathe::engine
