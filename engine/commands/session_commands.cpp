// Slash commands as a session hook.
#include "engine/commands/session_commands.h"

#include "engine/commands/command_dispatch.h"

namespace lathe::engine {

SessionCommands::SessionCommands(Session& session)
    : session_(session),
      registry_([&session](const acp::AvailableCommandsUpdate& update) { session.sendUpdate(update); }) {}

ClaimedPrompt SessionCommands::claimPrompt(const std::vector<acp::ContentBlock>& blocks) {
  auto named = findCommand(registry_, blocks);
  if (!named) return {};
  return [this, named = std::move(*named)](History& history, const CancelToken& cancel, std::vector<Part> attachments) {
    return runCommand(named, CommandContext{session_, registry_, history, named.input, cancel, named.command->name}, std::move(attachments));
  };
}

}  // namespace lathe::engine
