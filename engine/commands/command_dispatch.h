// Finding and running the slash command a prompt names. A prompt names a
// command when its first block is text that starts (after blanks) with
// `/name` followed by a blank or the end, and the session has a command of
// that name; the rest of that text, trimmed, is the command's input. A `/x`
// the session has no command for is not a command: it goes to the model as
// the person wrote it (as Gemini CLI does in ACP), so a path like
// `/usr/lib/x is missing` stays a question. On the turn's thread.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/commands/command_registry.h"
#include "protocol/acp/content.h"

namespace lathe::engine {

// `/name rest` split, or nullopt when the text does not start with a slash and a name.
struct CommandLine {
  std::string name;
  std::string input;
};
std::optional<CommandLine> parseCommandLine(std::string_view text);

struct NamedCommand {
  std::shared_ptr<const SlashCommand> command;
  std::string input;
};
std::optional<NamedCommand> findCommand(const CommandRegistry& commands, std::span<const acp::ContentBlock> blocks);

// Runs the command. An error is told to the person and ends the turn; a
// cancelled command ends it as cancelled. `attachments` (the prompt's other
// blocks as parts) follow the command's own parts when it becomes a model
// turn; a command that ends the turn says it did not use them.
CommandOutcome runCommand(const NamedCommand& named, const CommandContext& context, std::vector<Part> attachments);

}  // namespace lathe::engine
