// Parsing a prompt's command line and running the command.
#include "engine/commands/command_dispatch.h"

#include "engine/session/session.h"
#include "protocol/base/text.h"

namespace lathe::engine {
namespace {

constexpr std::string_view kBlanks = " \t\r\n";

}  // namespace

void CommandContext::say(const std::string& text) const {
  session.sendUpdate(acp::MessageChunk{acp::MessageChunk::Role::agent, text});
}

std::optional<CommandLine> parseCommandLine(std::string_view text) {
  text = text::trim(text);
  if (text.size() < 2 || text[0] != '/') return std::nullopt;
  size_t end = text.find_first_of(kBlanks, 1);
  std::string_view name = text.substr(1, end == std::string_view::npos ? std::string_view::npos : end - 1);
  if (!validCommandName(name)) return std::nullopt;
  std::string_view rest = end == std::string_view::npos ? std::string_view{} : text::trim(text.substr(end));
  return CommandLine{std::string(name), std::string(rest)};
}

std::optional<NamedCommand> findCommand(const CommandRegistry& commands, std::span<const acp::ContentBlock> blocks) {
  if (blocks.empty()) return std::nullopt;
  auto* text = std::get_if<acp::TextBlock>(&blocks.front());
  if (!text) return std::nullopt;
  auto line = parseCommandLine(text->text);
  if (!line) return std::nullopt;
  auto command = commands.find(line->name);
  if (!command) return std::nullopt;
  return NamedCommand{std::move(command), std::move(line->input)};
}

CommandOutcome runCommand(const NamedCommand& named, const CommandContext& context, std::vector<Part> attachments) {
  Result<CommandOutcome> outcome = makeError(Errc::internal, "the command did not run");
  try {
    outcome = named.command->handler(context);
  } catch (const std::exception& e) {
    outcome = makeError(Errc::internal, std::string("the command failed: ") + e.what());
  }
  if (context.cancel.cancelled()) return CommandOutcome::done(acp::StopReason::cancelled);
  if (!outcome) {
    context.say("/" + named.command->name + ": " + outcome.error().message);
    return CommandOutcome::done();
  }
  if (outcome->prompt) {
    for (auto& part : attachments) outcome->prompt->push_back(std::move(part));
  } else if (!attachments.empty()) {
    context.say("\n\n(/" + named.command->name + " does not read attachments; they were not used.)");
  }
  return std::move(outcome).value();
}

}  // namespace lathe::engine
