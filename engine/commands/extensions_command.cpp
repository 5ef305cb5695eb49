// Listing and managing the extensions from a session.
#include "engine/commands/extensions_command.h"

#include <memory>
#include <optional>

#include "protocol/base/text.h"

namespace lathe::engine {

std::string describeExtensions(const std::vector<Extension>& extensions) {
  if (extensions.empty()) {
    return "No extensions are installed. Install one with `/extensions install <folder or git URL>` "
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

namespace {

struct Words {
  std::vector<std::string> words;
  std::optional<std::string> ref;
  std::string scope = "user";
};

Result<Words> parseWords(std::string_view input) {
  std::vector<std::string> all;
  for (std::string_view rest = text::trim(input); !rest.empty();) {
    size_t end = rest.find(' ');
    all.emplace_back(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view{} : text::trimLeft(rest.substr(end));
  }
  Words out;
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string& word = all[i];
    if (word == "--ref" || word == "--scope") {
      if (i + 1 >= all.size()) return makeError(Errc::invalid_params, word + " needs a value");
      if (word == "--ref") out.ref = all[++i];
      else out.scope = all[++i];
    } else if (word.starts_with("--scope=")) {
      out.scope = word.substr(8);
    } else if (word.starts_with("--ref=")) {
      out.ref = word.substr(6);
    } else if (word.starts_with("--")) {
      return makeError(Errc::invalid_params, "unknown option " + word);
    } else {
      out.words.push_back(word);
    }
  }
  if (out.scope != "user" && out.scope != "workspace") {
    return makeError(Errc::invalid_params, "--scope must be user or workspace, not \"" + out.scope + "\"");
  }
  return out;
}

constexpr const char* kUsage =
    "use /extensions [list], /extensions install <folder or git URL> [--ref REF], /extensions link <folder>, "
    "/extensions uninstall <name>, /extensions enable <name> [--scope user|workspace] or /extensions disable <name> "
    "[--scope user|workspace]";
constexpr const char* kNextSession = " It applies from the next session.";

Result<CommandOutcome> manage(const ExtensionsCommandSetup& setup, const CommandContext& c, const Words& parsed) {
  const std::string& command = parsed.words.front();
  const std::vector<std::string> names(parsed.words.begin() + 1, parsed.words.end());
  auto fail = [&](const std::string& message) { return makeError(Errc::invalid_params, "/extensions " + command + ": " + message); };
  if (!setup.store) return fail("there is no home folder (neither GEMINI_CLI_HOME nor HOME is set)");
  const ExtensionStore& store = *setup.store;
  if (command == "install" || command == "link") {
    if (names.size() != 1) return fail(command == "install" ? "give one folder or git URL" : "give one folder");
    auto installed = store.install(names[0], parsed.ref, command == "link", setup.workspace,
                                   [&](const std::string& text) { return setup.agree(text, c.cancel); });
    if (!installed) return fail(installed.error().message);
    c.say("Extension \"" + installed->name + "\" " + (command == "link" ? "linked" : "installed") + " and enabled." + kNextSession);
    return CommandOutcome::done();
  }
  if (command == "uninstall" || command == "delete") {
    if (names.size() != 1) return fail("name one extension");
    if (auto removed = store.uninstall(names[0]); !removed) return fail(removed.error().message);
    c.say("Extension \"" + names[0] + "\" uninstalled." + kNextSession);
    return CommandOutcome::done();
  }
  if (command == "enable" || command == "disable") {
    if (names.size() != 1) return fail("name one extension");
    const bool enable = command == "enable";
    const std::string& folder = parsed.scope == "workspace" ? setup.workspace : setup.home;
    if (auto done = store.setEnabled(names[0], folder, enable); !done) return fail(done.error().message);
    c.say("Extension \"" + names[0] + "\" " + (enable ? "enabled" : "disabled") + " for the scope \"" + parsed.scope +
          "\" (" + folder + " and the folders below it)." + kNextSession);
    return CommandOutcome::done();
  }
  return makeError(Errc::invalid_params, "unknown subcommand \"" + command + "\": " + kUsage);
}

}  // namespace

void addExtensionsCommand(CommandRegistry& registry, ExtensionsCommandSetup setup) {
  auto shared = std::make_shared<const ExtensionsCommandSetup>(std::move(setup));
  (void)registry.add(SlashCommand{
      "extensions", "List, install, enable or disable extensions (changes apply from the next session)",
      std::string("[list | install <source> | link <folder> | uninstall <name> | enable <name> | disable <name>]"),
      [shared](const CommandContext& c) -> Result<CommandOutcome> {
        auto parsed = parseWords(c.input);
        if (!parsed) return parsed.error();
        if (!parsed->words.empty() && parsed->words.front() != "list") return manage(*shared, c, *parsed);
        c.say(describeExtensions(shared->extensions) + "\n\nManage them with `/extensions install | link | uninstall | "
              "enable | disable` (or `lathe extensions ...`); changes apply from the next session.");
        return CommandOutcome::done();
      },
      ""});
}

}  // namespace lathe::engine
