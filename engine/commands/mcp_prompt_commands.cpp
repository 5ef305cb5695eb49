// MCP prompts turned into the session's commands.
#include "engine/commands/mcp_prompt_commands.h"

#include <cctype>
#include <map>
#include <memory>
#include <mutex>

#include "engine/commands/prompt_arguments.h"
#include "engine/session/session.h"

namespace lathe::engine {
namespace {

constexpr const char* kGroup = "mcp";

std::vector<Part> partsOf(std::vector<tools::mcp::PromptContent> contents) {
  std::vector<Part> parts;
  for (auto& content : contents) {
    if (content.isInline()) {
      Part part;
      part.inlineData = InlineData{std::move(content.mimeType), std::move(content.data)};
      parts.push_back(std::move(part));
    } else {
      parts.push_back(Part::makeText(std::move(content.text)));
    }
  }
  return parts;
}

CommandHandler runPrompt(std::string server, tools::mcp::ListedPrompt prompt) {
  return [server = std::move(server), prompt = std::move(prompt)](const CommandContext& c) -> Result<CommandOutcome> {
    auto arguments = promptArguments(prompt, c.input);
    if (!arguments) return arguments.error();
    std::string json = json::buildObject([&](json::Writer& w) {
      for (const auto& [name, value] : *arguments) json::put(w, name, value);
    });
    auto messages = c.session.mcpServers().getPrompt(server, prompt.name, json, c.cancel);
    if (!messages) return messages.error();
    return CommandOutcome::ask(partsOf(std::move(messages).value()));
  };
}

void refresh(Session& session, CommandRegistry& registry) {
  auto servers = session.mcpServers().status();
  // How many servers offer each (cleaned) prompt name.
  std::map<std::string, int> offered;
  for (const auto& server : servers) {
    for (const auto& prompt : server.prompts) ++offered[commandNameFor(prompt.name)];
  }
  std::vector<SlashCommand> commands;
  for (const auto& server : servers) {
    for (const auto& prompt : server.prompts) {
      std::string name = commandNameFor(prompt.name);
      auto other = registry.find(name);
      const bool taken = offered[name] > 1 || (other && other->group != kGroup);
      if (taken) name = commandNameFor(server.name) + ":" + name;
      std::string description = prompt.description.empty() ? prompt.title : prompt.description;
      description = (description.empty() ? "MCP prompt " + prompt.name : description) + " (MCP server " + server.name + ")";
      std::optional<std::string> hint;
      if (!prompt.arguments.empty()) hint = promptHint(prompt);
      commands.push_back(SlashCommand{name, description, hint, runPrompt(server.name, prompt), kGroup});
    }
  }
  registry.replaceGroup(kGroup, std::move(commands));
}

}  // namespace

std::string commandNameFor(const std::string& text) {
  std::string name;
  for (unsigned char c : text) name += (std::isalnum(c) || c == '_' || c == '.' || c == '-') ? static_cast<char>(c) : '_';
  return name.empty() ? "_" : name.substr(0, 64);
}

void watchMcpPrompts(Session& session, CommandRegistry& registry) {
  Session* raw = &session;  // the servers end before the session's commands go
  CommandRegistry* commands = &registry;
  // One refresh at a time: two servers connecting at once must not leave the older view.
  auto serial = std::make_shared<std::mutex>();
  session.mcpServers().setPromptsListener([raw, commands, serial] {
    std::lock_guard lock(*serial);
    refresh(*raw, *commands);
  });
}

}  // namespace lathe::engine
