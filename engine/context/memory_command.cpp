// /memory show | list | refresh | add <fact>. Runs on the turn's thread.
#include "engine/context/memory_command.h"

#include "engine/commands/command_registry.h"
#include "tools/memory/memory_file.h"

namespace lathe::engine {
namespace {

std::pair<std::string_view, std::string_view> splitFirstWord(std::string_view input) {
  size_t end = input.find_first_of(" \t\r\n");
  if (end == std::string_view::npos) return {input, {}};
  std::string_view rest = input.substr(end);
  size_t begin = rest.find_first_not_of(" \t\r\n");
  return {input.substr(0, end), begin == std::string_view::npos ? std::string_view{} : rest.substr(begin)};
}

std::string reloadedText(const ProjectMemory::Loaded& loaded) {
  return "Memory reloaded: " + std::to_string(loaded.files) + " context file(s), " + std::to_string(loaded.bytes) +
         " bytes.";
}

Result<CommandOutcome> runMemory(Session& session, const CommandContext& context) {
  auto [sub, rest] = splitFirstWord(context.input);
  if (sub.empty() || sub == "show") {
    context.say(session.memory().describe());
  } else if (sub == "list") {
    auto paths = session.memory().paths();
    std::string text = std::to_string(paths.size()) + " context file(s) in use:\n";
    for (const auto& path : paths) text += "\n- " + path;
    context.say(text);
  } else if (sub == "refresh" || sub == "reload") {
    context.say(reloadedText(session.refreshMemory(context.cancel)));
  } else if (sub == "add") {
    const std::string file = tools::globalMemoryFile(session.config().memory);
    if (file.empty()) return makeError(Errc::invalid_params, "no global memory file: neither GEMINI_CLI_HOME nor HOME is set");
    auto added = tools::addMemoryFact(file, rest, context.cancel);
    if (!added) return added.error();
    // The new fact is part of the context from the next request on.
    auto loaded = session.refreshMemory(context.cancel);
    context.say("Added to " + file + ":\n\n" + *added + "\n\n" + reloadedText(loaded));
  } else {
    return makeError(Errc::invalid_params,
                     "unknown sub-command \"" + std::string(sub) + "\": use show, list, refresh or add <fact>");
  }
  if (context.cancel.cancelled()) return CommandOutcome::done(acp::StopReason::cancelled);
  return CommandOutcome::done();
}

}  // namespace

void addMemoryCommand(Session& session, CommandRegistry& commands) {
  Session* owner = &session;  // the command lives and dies with the session
  (void)commands.add(SlashCommand{
      "memory", "Show, list or reload the context files (GEMINI.md), or add a fact to your global memory",
      std::string("show | list | refresh | add <fact>"),
      [owner](const CommandContext& context) { return runMemory(*owner, context); }, "memory"});
}

}  // namespace lathe::engine
