// Listing the session's extensions.
#include "engine/commands/extensions_command.h"

#include <memory>

#include "protocol/base/text.h"

namespace lathe::engine {

std::string describeExtensions(const std::vector<Extension>& extensions) {
  if (extensions.empty()) {
    return "No extensions are installed. Install one with `lathe extensions install <folder or git URL>` "
           "(Gemini CLI's extensions in ~/.gemini/extensions are Lathe's too).";
  }
  std::string text = "Extensions (" + std::to_string(extensions.size()) + "):";
  for (const auto& ext : extensions) {
    text += "\n\n**" + ext.name + "** " + ext.version + ": " + (ext.enabled ? "enabled here" : "disabled here");
    if (!ext.description.empty()) text += "\n  " + ext.description;
    text += "\n- folder: " + ext.path;
    if (ext.install) text += "\n- source: " + ext.install->source + " (" + ext.install->type + ")";
    if (!ext.mcpServers.empty()) {
      std::vector<std::string> names;
      for (const auto& server : ext.mcpServers) names.push_back(server.name);
      text += "\n- MCP servers: " + text::join(names, ", ");
    }
    for (const auto& file : ext.contextFiles) text += "\n- context file: " + file;
    if (!ext.excludeTools.empty()) text += "\n- excluded tools: " + text::join(ext.excludeTools, ", ");
    if (!ext.skills.empty()) {
      std::vector<std::string> names;
      for (const auto& skill : ext.skills) names.push_back(skill.name);
      text += "\n- skills: " + text::join(names, ", ");
    }
    for (const auto& setting : ext.settings) {
      bool set = false;
      for (const auto& [name, value] : ext.settingValues) set = set || name == setting.envVar;
      text += "\n- setting " + setting.name + " (" + setting.envVar + "): " + (set ? "set" : "not set");
    }
    if (!ext.hooksFile.empty()) text += "\n- hooks: " + ext.hooksFile;
    if (!ext.policiesDir.empty()) text += "\n- policies: " + ext.policiesDir;
  }
  return text;
}

void addExtensionsCommand(CommandRegistry& registry, std::vector<Extension> extensions) {
  auto shared = std::make_shared<const std::vector<Extension>>(std::move(extensions));
  (void)registry.add(SlashCommand{
      "extensions", "List the extensions installed, and which are enabled in this workspace", std::nullopt,
      [shared](const CommandContext& c) -> Result<CommandOutcome> {
        c.say(describeExtensions(*shared) +
              "\n\nManage them with `lathe extensions list | install | uninstall | enable | disable | link`; "
              "changes apply from the next session.");
        return CommandOutcome::done();
      },
      ""});
}

}  // namespace lathe::engine
