// /agents.
#include "engine/subagents/agents_command.h"

#include "protocol/base/text.h"

namespace lathe::engine {
namespace {

std::string toolsOf(const AgentDefinition& agent) {
  if (!agent.tools) return "the session's tools";
  return agent.tools->empty() ? "no tools" : "`" + text::join(*agent.tools, "`, `") + "`";
}

std::string line(const AgentDefinition& agent) {
  std::string out = "\n- `" + agent.name + "` (" + agent.displayName + "), " + originOf(agent) + ": " +
                    agent.description.substr(0, agent.description.find('\n')) + "\n  Tools: " + toolsOf(agent) +
                    (agent.readOnly ? " (read-only)" : "") + ". Model: " + agent.model.value_or("the session's") +
                    ". Limits: " + std::to_string(agent.maxTurns) + " model requests, " +
                    std::to_string(agent.maxTimeMinutes) + " minutes, " + std::to_string(agent.maxTokens) + " tokens.";
  return out;
}

std::string listing(const AgentCatalog& catalog) {
  if (!catalog.enabled()) return "Sub-agents are turned off (settings experimental.enableAgents is false).";
  std::string available, unavailable;
  for (const auto& entry : catalog.entries()) {
    if (entry.status == AgentCatalog::Status::available) {
      available += line(*entry.agent);
    } else {
      unavailable += line(*entry.agent) + "\n  Not available: " + std::string(toString(entry.status)) + ".";
    }
  }
  std::string text = "Sub-agents the model can start with `invoke_agent`:" + (available.empty() ? "\n- (none)" : available);
  if (!unavailable.empty()) text += "\n\nNot available now:" + unavailable;
  if (!catalog.problems().empty()) {
    text += "\n\nAgent files that could not be used:";
    for (const auto& problem : catalog.problems()) text += "\n- " + problem;
  }
  text += "\n\nCustom sub-agents are Markdown files in ~/.gemini/agents/ and the workspace's .gemini/agents/.";
  return text;
}

}  // namespace

void addAgentsCommand(CommandRegistry& commands, std::shared_ptr<AgentCatalog> catalog) {
  (void)commands.add(SlashCommand{
      "agents", "List the sub-agents the model can start, and those it cannot and why", "[list]",
      [catalog](const CommandContext& context) -> Result<CommandOutcome> {
        if (!context.input.empty() && context.input != "list") {
          return makeError(Errc::invalid_params, "unknown sub-command \"" + std::string(context.input) +
                                                     "\": /agents lists the sub-agents (/agents list does the same)");
        }
        context.say(listing(*catalog));
        return CommandOutcome::done();
      },
      ""});
}

}  // namespace lathe::engine
