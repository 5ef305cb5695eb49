// A Gemini CLI extension as 0.61 loads it from ~/.gemini/extensions/<dir>:
// its gemini-extension.json (name, version, MCP servers, context files,
// excluded tools, settings), the install record beside it, the values of
// its settings (its .env), and what its folder brings: commands/, skills/,
// hooks/hooks.json and policies/. Variables (${extensionPath},
// ${workspacePath}, ${/}) are substituted for the session's workspace.
// Plain values; any thread.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tools/mcp/server_config.h"
#include "tools/skills/skill.h"

namespace lathe::engine {

// .gemini-extension-install.json: where it was installed from.
struct InstallMetadata {
  std::string source;  // a path, or a git URL
  std::string type;    // "local", "link", "git" (or Gemini CLI's "github-release")
  std::optional<std::string> ref;
};

struct ExtensionSetting {
  std::string name;
  std::string description;
  std::string envVar;
  bool sensitive = false;  // Gemini CLI keeps these in the system keychain, which Lathe does not read
};

struct Extension {
  std::string name;
  std::string version;
  std::string description;
  std::string installDir;  // ~/.gemini/extensions/<dir>
  std::string path;        // its files: installDir, or what a link points to
  std::optional<InstallMetadata> install;
  bool enabled = true;  // for the session's workspace (extension-enablement.json)
  std::vector<tools::mcp::ServerConfig> mcpServers;  // `trust` dropped, its settings' values in their environment
  std::vector<std::string> contextFiles;             // absolute, existing, inside its folder
  std::vector<std::string> excludeTools;
  std::vector<ExtensionSetting> settings;
  std::vector<std::pair<std::string, std::string>> settingValues;  // from its .env
  std::vector<tools::Skill> skills;  // its skills/ folder, extension set
  std::string commandsDir;           // its commands/ folder (may not exist)
  // hooks/hooks.json's "hooks" object, variables substituted and the
  // settings' values added to each command hook's env, as JSON text, for
  // the hook registry; empty when it has none.
  std::string hooksFile;
  std::string hooksJson;
  std::string policiesDir;  // its policies/ folder when there is one, for the policy loader
};

}  // namespace lathe::engine
