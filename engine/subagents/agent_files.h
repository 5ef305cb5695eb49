// Custom sub-agents as Gemini CLI writes them: Markdown files in
// ~/.gemini/agents/ (the person's) and <workspace>/.gemini/agents/ (the
// workspace's), YAML frontmatter (name, description, display_name, tools,
// model, temperature, max_turns, timeout_mins; kind local) and the body as
// the agent's instructions. A bad file is an error naming the file, the line
// and the key, and changes nothing else. Reads files; any thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/subagents/agent_definition.h"
#include "protocol/base/result.h"

namespace lathe::engine {

// One agent file's text; `path` names it in errors.
Result<std::shared_ptr<const AgentDefinition>> parseAgentFile(std::string_view text, const std::string& path,
                                                             AgentDefinition::Origin origin);

struct AgentFiles {
  std::vector<std::shared_ptr<const AgentDefinition>> agents;  // by file name
  std::vector<std::string> problems;                           // one per file that failed, for the person
};

// The `*.md` files of a folder (not those starting with `_`), by name; a
// missing folder holds none.
AgentFiles readAgentFolder(const std::string& folder, AgentDefinition::Origin origin);

}  // namespace lathe::engine
