// The built-in sub-agents, in Lathe's words.
#include "engine/subagents/builtin_agents.h"

namespace lathe::engine {
namespace {

constexpr const char* kInvestigatorPrompt =
    "You are the Codebase Investigator, a sub-agent of a coding agent. Another agent handed you an objective; "
    "your job is to understand the code that matters for it and hand back a report that lets that agent act "
    "correctly without reading everything again. You only read: you never change files, and the commands you "
    "run are read-only ones that run in a sandbox.\n\n"
    "# How to investigate\n"
    "- Start from the strongest clues in the objective (names, error messages, paths) and search for them; then "
    "follow what you find: callers, callees, types, configuration and tests.\n"
    "- Read the code instead of guessing from names. When something puzzles you, investigate it until it is "
    "clear: confusion means there is more to learn.\n"
    "- Work out why the code is the way it is and what a change would ripple into (callers to update, types, "
    "tests, behaviour that depends on it).\n"
    "- Keep a short running list, in your own words, of what is settled, what is still open and which paths "
    "turned out irrelevant, and keep going until nothing important is open.\n"
    "- Do not write the implementation. Say where and how it should be done.\n\n"
    "# Reporting\n"
    "When you are done, call `complete_task` with `report`, an object with:\n"
    "- `SummaryOfFindings`: your conclusions for the other agent (for a bug: the cause, its effects and the fix; "
    "for a feature: where it belongs and what must change).\n"
    "- `ExplorationTrace`: the steps you took, one short line each.\n"
    "- `RelevantLocations`: for each file that matters, `FilePath`, `Reasoning` (why it matters) and "
    "`KeySymbols` (the functions, classes or variables to look at).\n";

constexpr const char* kInvestigatorQuery =
    "Investigate the codebase for this objective: find the files, code and connections that matter, and "
    "report what you learn.\n<objective>\n${objective}\n</objective>";

constexpr const char* kInvestigatorReportSchema = R"({
  "type": "object",
  "properties": {
    "SummaryOfFindings": {"type": "string", "description": "What the investigation concluded, for the agent that asked."},
    "ExplorationTrace": {"type": "array", "items": {"type": "string"}, "description": "The steps and tools used, in order."},
    "RelevantLocations": {
      "type": "array",
      "description": "The files that matter and the symbols in them.",
      "items": {
        "type": "object",
        "properties": {
          "FilePath": {"type": "string"},
          "Reasoning": {"type": "string"},
          "KeySymbols": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["FilePath", "Reasoning", "KeySymbols"]
      }
    }
  },
  "required": ["SummaryOfFindings", "ExplorationTrace", "RelevantLocations"]
})";

std::shared_ptr<const AgentDefinition> investigator() {
  auto agent = std::make_shared<AgentDefinition>();
  agent->name = "codebase_investigator";
  agent->displayName = "Codebase Investigator Agent";
  agent->description =
      "Investigates the codebase for an objective: maps the code involved, its dependencies and the effects of a "
      "change, and returns a structured report with the key files, symbols and findings. Use it for vague "
      "requests, root causes of bugs, refactorings and features that touch several parts, and questions about "
      "the code that need investigation.";
  agent->systemPrompt = kInvestigatorPrompt;
  agent->inputName = "objective";
  agent->query = kInvestigatorQuery;
  agent->tools = std::vector<std::string>{"list_directory", "read_file",  "read_many_files", "glob",
                                          "grep_search",    "read_outline", "run_shell_command"};
  agent->readOnly = true;
  agent->temperature = 0.1;
  agent->maxTurns = 50;
  agent->maxTimeMinutes = 10;
  agent->report = AgentReport{"report", "The investigation's report, as an object.", kInvestigatorReportSchema};
  return agent;
}

constexpr const char* kGeneralistReportSchema = R"({
  "type": "object",
  "properties": {"response": {"type": "string", "description": "Your final answer or the results of the task."}},
  "required": ["response"]
})";

std::shared_ptr<const AgentDefinition> generalist() {
  auto agent = std::make_shared<AgentDefinition>();
  agent->name = "generalist";
  agent->displayName = "Generalist Agent";
  agent->description =
      "A general-purpose agent with the session's tools, under the same approvals, in a conversation of its own: "
      "for work of many steps or much output (changes across several files, commands with long output, broad "
      "investigations), so that only its result enters this conversation.";
  agent->usesLatheGuide = true;
  agent->inputName = "request";
  agent->query = "${request}";
  agent->maxTurns = 20;
  agent->maxTimeMinutes = 10;
  agent->report = AgentReport{"result", "The final answer or the results of the task.", kGeneralistReportSchema};
  return agent;
}

}  // namespace

std::vector<std::shared_ptr<const AgentDefinition>> builtinAgents() { return {investigator(), generalist()}; }

}  // namespace lathe::engine
