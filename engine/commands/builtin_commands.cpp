// /help, /tools, /mcp, /init.
#include "engine/commands/builtin_commands.h"

#include <sys/stat.h>

#include <chrono>
#include <map>

#include "engine/commands/mcp_prompt_commands.h"
#include "engine/session/session.h"
#include "protocol/base/text.h"

namespace lathe::engine {
namespace {

std::string firstLine(const std::string& text, size_t max = 120) { return text::firstLine(text, max); }

Result<CommandOutcome> help(const CommandContext& c) {
  std::string text = "Commands (type them at the start of a prompt):\n";
  for (const auto& command : c.commands.all()) {
    text += "\n- `/" + command->name + (command->inputHint ? " " + *command->inputHint : "") + "`: " +
            command->description;
  }
  text += "\n\nA `/word` that is not one of these goes to the model as you wrote it.";
  c.say(text);
  return CommandOutcome::done();
}

std::string toolLine(const tools::Tool& tool) {
  return "\n- `" + tool.name() + "`: " + firstLine(tool.info().description);
}

// Servers still starting get the few seconds a prompt gives them, so the lists are whole.
constexpr std::chrono::milliseconds kMcpStartWait{5000};

Result<CommandOutcome> toolsList(const CommandContext& c) {
  c.session.mcpServers().waitForStarts(kMcpStartWait);
  std::string builtin, discovered;
  std::map<std::string, std::string> byServer;
  size_t count = 0;
  for (const auto& tool : c.session.registry().all()) {
    auto source = c.session.registry().sourceOf(tool->name());
    if (!source) continue;
    ++count;
    switch (source->group) {
      case tools::ToolSource::Group::builtin: builtin += toolLine(*tool); break;
      case tools::ToolSource::Group::discovered: discovered += toolLine(*tool); break;
      case tools::ToolSource::Group::mcp: byServer[source->server] += toolLine(*tool); break;
    }
  }
  std::string text = "The model can call " + std::to_string(count) + " tools.\n\nBuilt-in:" +
                     (builtin.empty() ? "\n- (none)" : builtin);
  if (!discovered.empty()) text += "\n\nDiscovered (tools.discoveryCommand):" + discovered;
  for (const auto& [server, lines] : byServer) text += "\n\nMCP server " + server + ":" + lines;
  c.say(text);
  return CommandOutcome::done();
}

Result<CommandOutcome> mcpList(const CommandContext& c) {
  c.session.mcpServers().waitForStarts(kMcpStartWait);
  auto servers = c.session.mcpServers().status();
  if (servers.empty()) {
    c.say("No MCP servers in this session. Editors pass them in session/new; settings name them in `mcpServers`.");
    return CommandOutcome::done();
  }
  std::map<std::string, std::vector<std::string>> toolsOf;
  for (const auto& tool : c.session.registry().all()) {
    auto source = c.session.registry().sourceOf(tool->name());
    if (source && source->group == tools::ToolSource::Group::mcp) toolsOf[source->server].push_back(tool->name());
  }
  std::string text = "MCP servers:";
  for (const auto& server : servers) {
    text += "\n\n**" + server.name + "**: " + tools::mcp::toString(server.state);
    if (!server.detail.empty()) text += " (" + firstLine(server.detail, 300) + ")";
    const auto& names = toolsOf[server.name];
    text += "\n- tools (" + std::to_string(names.size()) + "):";
    for (const auto& name : names) text += " `" + name + "`";
    text += "\n- prompts (" + std::to_string(server.prompts.size()) + "):";
    for (const auto& prompt : server.prompts) text += " `" + prompt.name + "`";
  }
  c.say(text);
  return CommandOutcome::done();
}

// The instruction /init gives the model, in Lathe's words.
constexpr const char* kInitInstruction =
    "Write a GEMINI.md file at the root of this project (the current working directory). It is the context file "
    "that will be given to an AI coding agent at the start of every future session here, so it must help that "
    "agent work on this project correctly from the first prompt.\n\n"
    "First look at the project with your tools: list the top-level folders, read the README and the build or "
    "package files (for example CMakeLists.txt, package.json, Cargo.toml, pyproject.toml, go.mod, Makefile), the "
    "test and CI setup, and a few central source files. Do not guess what you can read.\n\n"
    "Then create GEMINI.md with write_file. Keep it short and factual (about 40-120 lines of Markdown) and cover:\n"
    "- what the project is and does, in two or three sentences;\n"
    "- how to build it, run it and run its tests (exact commands);\n"
    "- how the code is laid out (the main folders and what each holds);\n"
    "- conventions the code follows (language version, style, error handling, naming, how tests are written);\n"
    "- anything an agent must be careful about (generated files, things not to touch).\n"
    "Leave out anything you could not confirm from the files. When it is written, say in one or two sentences "
    "what you put in it.";

Result<CommandOutcome> init(const CommandContext& c) {
  const std::string path = c.session.workspace().cwd() + "/GEMINI.md";
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && st.st_size > 0) {
    return makeError(Errc::invalid_params, path + " already exists and is not empty, so it was left as it is. "
                                                  "Edit it, or remove it and run /init again.");
  }
  return CommandOutcome::ask({Part::makeText(kInitInstruction)});
}

SlashCommand command(const char* name, const char* description, CommandHandler handler) {
  return SlashCommand{name, description, std::nullopt, std::move(handler), ""};
}

}  // namespace

void addBuiltinCommands(Session& session, CommandRegistry& commands) {
  (void)commands.add(command("help", "List the commands this session offers", help));
  (void)commands.add(command("tools", "List the tools the model can call, by source", toolsList));
  (void)commands.add(command("mcp", "List the MCP servers of this session: their state, tools and prompts", mcpList));
  (void)commands.add(command("init", "Have the model look at the project and write a GEMINI.md for it", init));
  watchMcpPrompts(session, commands);
}

}  // namespace lathe::engine
