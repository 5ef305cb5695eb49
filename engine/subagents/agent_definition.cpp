// Sub-agent definitions.
#include "engine/subagents/agent_definition.h"

#include <algorithm>

namespace lathe::engine {

const std::vector<std::string>& builtinsRunningNoPrograms() {
  static const std::vector<std::string> names{
      "read_file", "read_many_files", "list_directory", "glob", "grep_search", "read_outline", "write_file",
      "replace", "web_fetch", "google_web_search", "save_memory", "write_todos", "list_background_processes",
      "read_background_output", "list_mcp_resources", "read_mcp_resource"};
  return names;
}

bool couldRunPrograms(const AgentDefinition& agent) {
  if (!agent.tools) return true;
  const auto& safe = builtinsRunningNoPrograms();
  for (const std::string& name : *agent.tools) {
    if (std::find(safe.begin(), safe.end(), name) == safe.end()) return true;
  }
  return false;
}

namespace {

// A `tools` entry naming this tool: its name (an MCP tool also as
// <server>__<tool> or mcp_<server>_<tool>), or a pattern that covers it.
bool names(const std::string& entry, const tools::Tool& tool, const tools::ToolSource& source) {
  if (entry == "*") return true;
  const bool mcp = source.group == tools::ToolSource::Group::mcp;
  if (entry == "mcp_*") return mcp;
  if (entry.ends_with("*")) {
    std::string_view prefix(entry.data(), entry.size() - 1);
    return mcp && (prefix == "mcp_" + source.server + "_" || prefix == source.server + "__");
  }
  return tools::settingNamesTool(entry, tool.name(), source);
}

}  // namespace

std::vector<std::pair<std::shared_ptr<const tools::Tool>, tools::ToolSource>> toolsFor(
    const AgentDefinition& agent, const std::vector<std::pair<std::shared_ptr<const tools::Tool>, tools::ToolSource>>& parent) {
  std::vector<std::pair<std::shared_ptr<const tools::Tool>, tools::ToolSource>> out;
  for (const auto& [tool, source] : parent) {
    if (tool->kind() == tools::Kind::agent || tool->kind() == tools::Kind::communicate || tool->name() == "write_todos" ||
        tool->name() == "complete_task") {
      continue;
    }
    bool listed = !agent.tools;
    for (size_t i = 0; !listed && i < agent.tools->size(); ++i) listed = names((*agent.tools)[i], *tool, source);
    if (listed) out.emplace_back(tool, source);
  }
  return out;
}

std::string originOf(const AgentDefinition& agent) {
  switch (agent.origin) {
    case AgentDefinition::Origin::builtin: return "built in";
    case AgentDefinition::Origin::user: return "yours (" + agent.path + ")";
    case AgentDefinition::Origin::workspace: return "the workspace's (" + agent.path + ")";
  }
  return "";
}

}  // namespace lathe::engine
