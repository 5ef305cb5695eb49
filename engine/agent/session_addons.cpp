// Extensions, custom command folders and skills for one session.
#include "engine/agent/session_addons.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/config/hook_settings.h"
#include "engine/config/policy_folders.h"
#include "engine/extensions/extension_loader.h"
#include "protocol/base/text.h"
#include "tools/memory/context_files.h"

namespace lathe::engine {
namespace {

std::string geminiDirOf(const AgentConfig& config) {
  return config.homeDir.empty() ? std::string() : config.homeDir + "/.gemini";
}

// A workspace at the person's home has no folders of its own: they are the person's.
bool atHome(const std::string& root, const AgentConfig& config) {
  std::error_code ec;
  return !config.homeDir.empty() && std::filesystem::equivalent(root, config.homeDir, ec);
}

std::string contextBlocks(const std::vector<Extension>& extensions) {
  std::vector<std::string> paths;
  for (const auto& ext : extensions) {
    if (ext.enabled) paths.insert(paths.end(), ext.contextFiles.begin(), ext.contextFiles.end());
  }
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  std::string out;
  for (const auto& path : paths) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::string content(text::trim(text.str()));
    if (content.empty()) continue;
    out += (out.empty() ? "" : "\n\n") + tools::contextBlock({tools::ContextFile::Tier::project, path, content});
  }
  return out;
}

// Its hooks run as the person's own; a definition left out is told, the rest still run.
void addExtensionHooks(const Extension& ext, AgentConfig& config) {
  if (ext.hooksJson.empty()) return;
  auto hooks = json::parse(ext.hooksJson);
  if (!hooks) {
    config.hooks.problems.push_back(ext.hooksFile + ": " + hooks.error().message);
    return;
  }
  config.hooks.add(decodeHooks(*hooks, HookSource{HookOrigin::extension, ext.hooksFile, ext.name}));
}

}  // namespace

SessionAddOns addOnsFor(const std::string& root, AgentConfig& config) {
  SessionAddOns out;
  const std::string gemini = geminiDirOf(config);
  ExtensionScan scan = loadExtensions(gemini, root, processEnvironment(),
                                      ExtensionFilter{config.blockGitExtensions, config.allowedExtensions});
  for (auto& problem : scan.problems) out.problems.push_back({acp::NoticeSeverity::warning, "Extension problem", std::move(problem)});
  if (!gemini.empty()) out.commandFolders.push_back({gemini + "/commands", FileCommand::Origin::user, ""});
  if (!atHome(root, config)) out.commandFolders.push_back({root + "/.gemini/commands", FileCommand::Origin::workspace, ""});
  for (const auto& ext : scan.extensions) {
    if (!ext.enabled) continue;
    out.commandFolders.push_back({ext.commandsDir, FileCommand::Origin::extension, ext.name});
    addExtensionHooks(ext, config);
    if (!ext.policiesDir.empty()) addExtensionPolicies(config.policies, ext.name, ext.policiesDir);
    for (const auto& tool : ext.excludeTools) {
      if (std::find(config.excludeTools.begin(), config.excludeTools.end(), tool) == config.excludeTools.end()) {
        config.excludeTools.push_back(tool);
      }
    }
    auto& servers = config.programs.mcpServers;
    for (const auto& server : ext.mcpServers) {
      const bool named = std::any_of(servers.begin(), servers.end(), [&](const auto& s) { return s.name == server.name; });
      if (named) {
        out.problems.push_back({acp::NoticeSeverity::warning, "Extension server not started", "the MCP server \"" + server.name + "\" of the extension " +
                                                                    ext.name + " is not used: another server has that name"});
        continue;
      }
      servers.push_back(server);
    }
  }
  out.extensionContext = contextBlocks(scan.extensions);
  out.extensions = std::move(scan.extensions);
  out.skills = std::make_shared<SessionSkills>(root, config, out.extensions);
  return out;
}

}  // namespace lathe::engine
