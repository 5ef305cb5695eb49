// What a sub-agent is: its name and description (what the parent's model
// reads to choose it), its instructions, the tools it may use (never more
// than its parent's), its model and its limits, and how it reports back
// through complete_task. Built in (builtin_agents.h) or read from a
// Markdown file with frontmatter (agent_files.h), in Gemini CLI's format.
// Immutable once made; shared across threads.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <optional>
#include <string>
#include <vector>

#include "tools/core/registry.h"

namespace lathe::engine {

// complete_task's one parameter: its name, what the model is told it holds,
// and its JSON schema (a string, or an object the model fills in).
struct AgentReport {
  std::string name = "result";
  std::string description =
      "Your final results or findings for the agent that started you, complete and in the form your instructions ask for.";
  std::string schema = R"({"type":"string"})";
};

struct AgentDefinition {
  enum class Origin { builtin, user, workspace };
  Origin origin = Origin::builtin;
  std::string path;  // the file it was read from; empty for a built-in
  std::string text;  // the file's whole text (what consent to a workspace's agent covers)

  std::string name;  // what invoke_agent's agent_name names
  std::string displayName;
  std::string description;

  // The system instruction, with ${name} placeholders for the input, today
  // and activeModel; empty with usesLatheGuide.
  std::string systemPrompt;
  bool usesLatheGuide = false;  // Lathe's own working guide instead (generalist)
  std::string inputName = "query";  // the input invoke_agent's `prompt` fills
  std::string query = "${query}";   // the child's first message, from the inputs

  // The parent's tools it may use by name or pattern (*, mcp_*,
  // mcp_<server>_*, <server>__*); nullopt: all of them.
  std::optional<std::vector<std::string>> tools;
  bool readOnly = false;  // only what reads runs (withinReadOnly); shell lines sealed

  std::optional<std::string> model;  // nullopt: the parent session's
  std::optional<double> temperature;
  int maxTurns = 30;          // model requests
  int maxTimeMinutes = 10;    // wall time, not counting waits for the person
  int64_t maxTokens = 2'000'000;  // prompt and reply tokens of all its requests together
  AgentReport report;
};

// Whether a definition's tools could run programs (a shell command, a
// discovered or MCP tool): every tool of the parent when it names none, a
// pattern, or a name that is not one of builtinsRunningNoPrograms(). A
// workspace's such agent waits for the person's consent.
bool couldRunPrograms(const AgentDefinition& agent);
// Lathe's built-in tools that start no program (all but the shell's).
const std::vector<std::string>& builtinsRunningNoPrograms();

// The tools of `parent` a child of this definition gets: those its `tools`
// name (all when it names none), never invoke_agent (children start no
// children), write_todos (the plan shown is the parent's) nor ask_user
// (children work without the person, as Gemini CLI's do).
std::vector<std::pair<std::shared_ptr<const tools::Tool>, tools::ToolSource>> toolsFor(
    const AgentDefinition& agent, const std::vector<std::pair<std::shared_ptr<const tools::Tool>, tools::ToolSource>>& parent);

// Where a definition comes from, for the person.
std::string originOf(const AgentDefinition& agent);

}  // namespace lathe::engine
