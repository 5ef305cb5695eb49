// MCP prompts as slash commands: every prompt of every connected server of a
// session is a command `/<prompt>`, or `/<server>:<prompt>` when another
// command or another server's prompt has that name (names are recomputed
// whenever a server's prompts change, so a collision renames both sides).
// Characters a command name cannot hold become '_'. Running one reads its
// arguments from the input (prompt_arguments.h), calls prompts/get, and sends
// the prompt's messages to the model as the user's turn.
#pragma once

#include <string>
#include <vector>

#include "engine/commands/command_registry.h"
#include "engine/commands/slash_command.h"

namespace lathe::engine {

// Keeps the session's "mcp" command group in step with its servers' prompts.
// Call before the session's MCP servers start.
void watchMcpPrompts(Session& session, CommandRegistry& registry);

// What a command name becomes from any text.
std::string commandNameFor(const std::string& text);

}  // namespace lathe::engine
