// A slash command of a session: what the editor offers after `/` (name,
// description, input hint) and the handler that runs it. A handler runs on
// the turn's thread, which owns the session's history while it runs; it may
// tell the person something (CommandContext::say) and either end the turn or
// turn it into a model turn with the parts it returns. Handlers must honour
// the cancel token (a cancelled command ends the turn as cancelled).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/content.h"
#include "engine/session/turn_hooks.h"
#include "protocol/acp/common.h"
#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::engine {

class CommandRegistry;
class Session;

struct CommandContext {
  Session& session;
  CommandRegistry& commands;  // the session's
  History& history;        // the turn owns it while the command runs
  std::string_view input;  // the text after the command's name, trimmed
  const CancelToken& cancel;
  std::string_view commandName = {};  // as the person typed it

  // Shows the person text as the agent's message (recorded like any other).
  void say(const std::string& text) const;
};

// Set prompt: the turn goes on as a model turn with these parts as the
// user's message (e.g. an MCP prompt, /init). Unset: the turn ends.
using CommandOutcome = PromptOutcome;

// An Error is shown to the person (its message) and ends the turn; nothing
// reaches the model.
using CommandHandler = std::function<Result<CommandOutcome>(const CommandContext&)>;

struct SlashCommand {
  std::string name;  // without '/'; letters, digits and _ . : - only
  std::string description;
  std::optional<std::string> inputHint;  // set: the command reads the text after its name
  CommandHandler handler;
  // Who added it ("" for Lathe's own, "mcp" for MCP prompts, ...), so an
  // owner can replace all of its commands at once.
  std::string group;
};

// True for a name a command may have (see SlashCommand::name).
bool validCommandName(std::string_view name);

}  // namespace lathe::engine
