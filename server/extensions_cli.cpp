// The extensions command line.
#include "server/extensions_cli.h"

#include <optional>

#include "engine/extensions/extension_enablement.h"
#include "engine/extensions/extension_store.h"

namespace lathe::server {
namespace {

constexpr const char* kUsage =
    "Usage: lathe extensions list\n"
    "       lathe extensions install <folder or git URL> [--ref REF] [--consent]\n"
    "       lathe extensions link <folder> [--consent]\n"
    "       lathe extensions uninstall <name>...\n"
    "       lathe extensions enable <name> [--scope user|workspace]\n"
    "       lathe extensions disable <name> [--scope user|workspace]\n";

struct Parsed {
  std::vector<std::string> words;
  std::optional<std::string> ref;
  std::string scope = "user";
  bool consent = false;
};

std::optional<Parsed> parse(const std::vector<std::string>& args, std::string& error) {
  Parsed parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--consent") {
      parsed.consent = true;
    } else if (arg == "--ref" || arg == "--scope") {
      if (i + 1 >= args.size()) {
        error = arg + " needs a value";
        return std::nullopt;
      }
      if (arg == "--ref") parsed.ref = args[i + 1];
      if (arg == "--scope") parsed.scope = args[i + 1];
      ++i;
    } else if (arg.starts_with("--scope=")) {
      parsed.scope = arg.substr(8);
    } else if (arg.starts_with("--ref=")) {
      parsed.ref = arg.substr(6);
    } else if (arg.starts_with("-")) {
      error = "unknown option " + arg;
      return std::nullopt;
    } else {
      parsed.words.push_back(arg);
    }
  }
  if (parsed.scope != "user" && parsed.scope != "workspace") {
    error = "--scope must be user or workspace, not \"" + parsed.scope + "\"";
    return std::nullopt;
  }
  return parsed;
}

void listOne(const engine::Extension& ext, const ExtensionsCliSetup& setup, std::FILE* out) {
  engine::ExtensionEnablement enablement(setup.homeDir + "/.gemini/extensions/" + engine::kEnablementName);
  const bool user = enablement.isEnabled(ext.name, setup.homeDir);
  std::fprintf(out, "%s %s (%s)\n Path: %s\n", ext.enabled ? "✓" : "✗", ext.name.c_str(), ext.version.c_str(),
               ext.path.c_str());
  if (ext.install) std::fprintf(out, " Source: %s (Type: %s)\n", ext.install->source.c_str(), ext.install->type.c_str());
  if (ext.install && ext.install->ref) std::fprintf(out, " Ref: %s\n", ext.install->ref->c_str());
  std::fprintf(out, " Enabled (User): %s\n Enabled (Workspace): %s\n", user ? "true" : "false", ext.enabled ? "true" : "false");
  auto section = [&](const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    std::fprintf(out, " %s:\n", title);
    for (const auto& item : items) std::fprintf(out, "  %s\n", item.c_str());
  };
  section("Context files", ext.contextFiles);
  std::vector<std::string> servers, skills, settings;
  for (const auto& server : ext.mcpServers) servers.push_back(server.name);
  for (const auto& skill : ext.skills) skills.push_back(skill.name + ": " + skill.description);
  for (const auto& setting : ext.settings) settings.push_back(setting.name + " (" + setting.envVar + ")");
  section("MCP servers", servers);
  section("Excluded tools", ext.excludeTools);
  section("Agent skills", skills);
  section("Settings", settings);
  if (!ext.hooksFile.empty()) section("Hooks", {ext.hooksFile});
  if (!ext.policiesDir.empty()) section("Policies", {ext.policiesDir});
}

// The person's yes: --consent, or an answer on the terminal.
bool agreed(const std::string& text, const Parsed& parsed, const ExtensionsCliSetup& setup) {
  std::fprintf(setup.err, "%s\n", text.c_str());
  if (parsed.consent) return true;
  if (!setup.terminal) {
    std::fprintf(setup.err, "There is no terminal to ask on: run it again with --consent to agree.\n");
    return false;
  }
  std::fprintf(setup.err, "Install it? [y/N] ");
  std::fflush(setup.err);
  char answer[16] = {0};
  if (!std::fgets(answer, sizeof answer, setup.in)) return false;
  return answer[0] == 'y' || answer[0] == 'Y';
}

}  // namespace

int runExtensionsCommand(const std::vector<std::string>& args, const ExtensionsCliSetup& setup) {
  std::string error;
  auto parsed = parse(args, error);
  if (!parsed || parsed->words.empty()) {
    std::fprintf(setup.err, "lathe extensions: %s\n%s", error.empty() ? "which command?" : error.c_str(), kUsage);
    return 2;
  }
  if (setup.homeDir.empty()) {
    std::fprintf(setup.err, "lathe extensions: neither GEMINI_CLI_HOME nor HOME is set\n");
    return 1;
  }
  const std::string command = parsed->words.front();
  const std::vector<std::string> names(parsed->words.begin() + 1, parsed->words.end());
  engine::ExtensionStore store(setup.homeDir + "/.gemini", setup.homeDir, engine::processEnvironment(), setup.filter);
  auto fail = [&](const std::string& message) {
    std::fprintf(setup.err, "lathe extensions %s: %s\n", command.c_str(), message.c_str());
    return 1;
  };
  if (command == "list") {
    engine::ExtensionScan scan = store.list(setup.cwd);
    for (const auto& problem : scan.problems) std::fprintf(setup.err, "warning: %s\n", problem.c_str());
    if (scan.extensions.empty()) std::fprintf(setup.out, "No extensions installed.\n");
    for (size_t i = 0; i < scan.extensions.size(); ++i) {
      if (i) std::fprintf(setup.out, "\n");
      listOne(scan.extensions[i], setup, setup.out);
    }
    return 0;
  }
  if (command == "install" || command == "link") {
    if (names.size() != 1) return fail(command == "install" ? "give one folder or git URL" : "give one folder");
    auto installed = store.install(names[0], parsed->ref, command == "link", setup.cwd,
                                   [&](const std::string& text) { return agreed(text, *parsed, setup); });
    if (!installed) return fail(installed.error().message);
    std::fprintf(setup.out, "Extension \"%s\" %s and enabled.\n", installed->name.c_str(),
                 command == "link" ? "linked" : "installed");
    return 0;
  }
  if (command == "uninstall") {
    if (names.empty()) return fail("name at least one extension");
    int status = 0;
    for (const auto& name : names) {
      if (auto removed = store.uninstall(name); !removed) {
        status = fail(removed.error().message);
      } else {
        std::fprintf(setup.out, "Extension \"%s\" uninstalled.\n", name.c_str());
      }
    }
    return status;
  }
  if (command == "enable" || command == "disable") {
    if (names.size() != 1) return fail("name one extension");
    const bool enable = command == "enable";
    const std::string folder = parsed->scope == "workspace" ? setup.cwd : setup.homeDir;
    if (auto done = store.setEnabled(names[0], folder, enable); !done) return fail(done.error().message);
    std::fprintf(setup.out, "Extension \"%s\" %s for scope \"%s\" (%s and the folders below it).\n", names[0].c_str(),
                 enable ? "enabled" : "disabled", parsed->scope.c_str(), folder.c_str());
    return 0;
  }
  std::fprintf(setup.err, "lathe extensions: unknown command \"%s\"\n%s", command.c_str(), kUsage);
  return 2;
}

}  // namespace lathe::server
