// What a session takes from the person's Gemini CLI folders and from its
// workspace besides settings, read when it is assembled: the extensions
// (~/.gemini/extensions) enabled for its workspace, whose MCP servers and
// excluded tools join its config as the person's own settings would (a
// server of the same name in settings wins) and whose context files open
// its conversation; the folders of its custom commands; and its skills.
// What could not be used is kept to tell the person. Reads files: never on
// the thread that reads stdin.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/agent/session_skills.h"
#include "engine/commands/custom_commands.h"
#include "engine/commands/file_commands.h"
#include "engine/config/agent_config.h"
#include "engine/extensions/extension.h"

namespace lathe::engine {

struct SessionAddOns {
  std::vector<Extension> extensions;  // every one installed, enabled or not (for /extensions)
  std::vector<CommandFolder> commandFolders;
  std::string extensionContext;  // the enabled extensions' context files, as blocks
  std::shared_ptr<SessionSkills> skills;
  std::vector<acp::Notice> problems;
};

// Loads the extensions for `root` and merges the enabled ones' MCP servers,
// excluded tools, hooks and policy folders into `config`.
SessionAddOns addOnsFor(const std::string& root, AgentConfig& config);

}  // namespace lathe::engine
