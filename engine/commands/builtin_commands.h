// Lathe's own slash commands of every session: /help (the commands),
// /tools (what the model can call, by source), /mcp (the MCP servers, their
// state, tools and prompts) and /init (the model writes a GEMINI.md for the
// project through the normal tool and permission flow). /compress lives with
// context management (engine/context/context_hooks.cpp).
#pragma once

namespace lathe::engine {

class CommandRegistry;
class Session;

// Adds them, and keeps MCP prompts as commands (mcp_prompt_commands.h).
// Call before the session's MCP servers start.
void addBuiltinCommands(Session& session, CommandRegistry& commands);

}  // namespace lathe::engine
