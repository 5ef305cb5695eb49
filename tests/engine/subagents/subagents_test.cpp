// Sub-agents below the binary: agent files (Gemini CLI's format, errors with
// file, line and key), which tools a child gets, which workspace agents wait
// for consent, the catalog's order and settings, placeholders, the progress
// shown on the parent's call, a child's limits (tokens, the grace request,
// its time), and what a replay keeps for an editor that does not show child
// sessions.
#include <catch2/catch.hpp>

#include <future>

#include "engine/persistence/session_recorder.h"
#include "engine/subagents/agent_catalog.h"
#include "engine/subagents/agent_files.h"
#include "engine/subagents/child_clock.h"
#include "engine/subagents/child_limits.h"
#include "engine/subagents/child_instructions.h"
#include "engine/subagents/child_progress.h"
#include "tests/support/temp_dir.h"
#include "tools/builtin/builtin_tools.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::TempDir;

namespace {

using Origin = AgentDefinition::Origin;

std::string errorOf(std::string_view text, const std::string& path = "/a/agent.md") {
  auto parsed = parseAgentFile(text, path, Origin::user);
  REQUIRE_FALSE(parsed);
  return parsed.error().message;
}

class NamedTool final : public tools::Tool {
 public:
  NamedTool(std::string name, tools::Kind kind)
      : Tool(tools::ToolInfo{.name = std::move(name),
                             .displayName = "Named",
                             .description = "A tool with a name",
                             .kind = kind,
                             .parametersSchema = R"({"type":"object"})"}) {}

 protected:
  tools::BuildResult createInvocation(const json::Value&) const override { return tools::invalidParams("unused"); }
};

using Entries = std::vector<std::pair<std::shared_ptr<const tools::Tool>, tools::ToolSource>>;

Entries parentTools() {
  using Group = tools::ToolSource::Group;
  Entries out;
  auto add = [&](std::string name, tools::Kind kind, tools::ToolSource source = {}) {
    out.emplace_back(std::make_shared<NamedTool>(std::move(name), kind), std::move(source));
  };
  add("read_file", tools::Kind::read);
  add("run_shell_command", tools::Kind::execute);
  add("write_todos", tools::Kind::think);
  add("invoke_agent", tools::Kind::agent);
  add("ask_user", tools::Kind::communicate);
  add("github__list_issues", tools::Kind::other, {Group::mcp, "github", "list_issues"});
  add("jira__find", tools::Kind::other, {Group::mcp, "jira", "find"});
  return out;
}

std::set<std::string> namesOf(const Entries& entries) {
  std::set<std::string> names;
  for (const auto& [tool, source] : entries) names.insert(tool->name());
  return names;
}

AgentDefinition withTools(std::optional<std::vector<std::string>> tools) {
  AgentDefinition agent;
  agent.tools = std::move(tools);
  return agent;
}

}  // namespace

TEST_CASE("agent files: Gemini CLI's frontmatter fields and the body as instructions") {
  auto agent = parseAgentFile(
      "---\nname: security-auditor\ndescription: Finds vulnerabilities.\nkind: local\ndisplay_name: Auditor\n"
      "tools:\n  - read_file\n  - grep_search\n  - mcp_github_*\nmodel: gemini-3-flash-preview\ntemperature: 0.2\n"
      "max_turns: 10\ntimeout_mins: 3\n---\n\nYou are a ruthless auditor.\n\n",
      "/home/p/.gemini/agents/security-auditor.md", Origin::user);
  REQUIRE(agent);
  CHECK((*agent)->name == "security-auditor");
  CHECK((*agent)->displayName == "Auditor");
  CHECK((*agent)->description == "Finds vulnerabilities.");
  CHECK((*agent)->tools == std::vector<std::string>{"read_file", "grep_search", "mcp_github_*"});
  CHECK((*agent)->model == "gemini-3-flash-preview");
  CHECK((*agent)->temperature == 0.2);
  CHECK((*agent)->maxTurns == 10);
  CHECK((*agent)->maxTimeMinutes == 3);
  CHECK((*agent)->systemPrompt == "You are a ruthless auditor.");
  CHECK((*agent)->query == "${query}");

  auto defaults = parseAgentFile("---\nname: a\ndescription: d\nmodel: inherit\n---\nBody\n", "/x.md", Origin::user);
  REQUIRE(defaults);
  CHECK_FALSE((*defaults)->tools);  // all of the parent's
  CHECK_FALSE((*defaults)->model);  // the parent's
  CHECK((*defaults)->displayName == "a");
  CHECK((*defaults)->maxTurns == 30);
  CHECK((*defaults)->maxTimeMinutes == 10);
}

TEST_CASE("agent files: a bad file is an error naming the file, the line and the key") {
  CHECK(errorOf("---\nname: a\ndescription: d\ncolour: red\n---\nBody\n") ==
        "/a/agent.md:4: colour: not a field of an agent definition (name, description, display_name, tools, model, "
        "temperature, max_turns, timeout_mins, kind)");
  CHECK(errorOf("---\nname: Bad Name\ndescription: d\n---\nBody\n") ==
        "/a/agent.md:2: name: only lowercase letters, digits, - and _");
  CHECK(errorOf("---\nname: a\n---\nBody\n").find("description") != std::string::npos);
  CHECK(errorOf("---\nname: a\ndescription: d\nmax_turns: 0\n---\nBody\n") ==
        "/a/agent.md:4: max_turns: must be a positive whole number");
  CHECK(errorOf("---\nname: a\ndescription: d\ntemperature: 3\n---\nBody\n") ==
        "/a/agent.md:4: temperature: must be between 0 and 2");
  CHECK(errorOf("---\nname: a\ndescription: d\ntools:\n  - read_file\n  - 'bad tool'\n---\nBody\n") ==
        "/a/agent.md:6: tools[1]: not a tool name or pattern");
  CHECK(errorOf("---\nname: a\ndescription: d\nkind: remote\nagent_card_url: https://x\n---\n")
            .find("agent_card_url: not a field") != std::string::npos);
  CHECK(errorOf("---\nname: a\ndescription: d\nkind: remote\n---\nBody\n") ==
        "/a/agent.md:4: kind: remote (A2A) agents are not supported by Lathe; only local ones");
  CHECK(errorOf("---\nname: a\ndescription: d\nmcp_servers:\n  s:\n    command: node\n---\nBody\n")
            .starts_with("/a/agent.md:4: mcp_servers: Lathe does not start an agent's own MCP servers"));
  CHECK(errorOf("---\nname: a\ndescription: d\n---\n\n  \n") ==
        "/a/agent.md:5: the agent's instructions (the text after the frontmatter) are empty");
  CHECK(errorOf("no frontmatter").starts_with("/a/agent.md: no frontmatter"));
}

TEST_CASE("agent folders: *.md files by name, _ files skipped, bad ones told one by one") {
  TempDir dir;
  dir.write("agents/b.md", "---\nname: b\ndescription: B\n---\nBody\n");
  dir.write("agents/a.md", "---\nname: a\ndescription: A\n---\nBody\n");
  dir.write("agents/_draft.md", "---\nname: draft\ndescription: D\n---\nBody\n");
  dir.write("agents/notes.txt", "not an agent");
  dir.write("agents/c.md", "---\nname: c\n---\nBody\n");
  AgentFiles files = readAgentFolder((dir.path / "agents").string(), Origin::workspace);
  REQUIRE(files.agents.size() == 2);
  CHECK(files.agents[0]->name == "a");
  CHECK(files.agents[1]->name == "b");
  CHECK(files.agents[0]->origin == Origin::workspace);
  REQUIRE(files.problems.size() == 1);
  CHECK(files.problems[0].find("c.md:2: description") != std::string::npos);
  CHECK(readAgentFolder((dir.path / "missing").string(), Origin::user).agents.empty());
}

TEST_CASE("a child's tools: what its file names (patterns too), never invoke_agent, write_todos nor ask_user") {
  Entries parent = parentTools();
  CHECK(namesOf(toolsFor(withTools(std::nullopt), parent)) ==
        std::set<std::string>{"read_file", "run_shell_command", "github__list_issues", "jira__find"});
  CHECK(namesOf(toolsFor(withTools(std::vector<std::string>{"*"}), parent)) ==
        std::set<std::string>{"read_file", "run_shell_command", "github__list_issues", "jira__find"});
  CHECK(namesOf(toolsFor(withTools(std::vector<std::string>{"read_file", "invoke_agent", "write_todos", "ask_user"}), parent)) ==
        std::set<std::string>{"read_file"});
  CHECK(namesOf(toolsFor(withTools(std::vector<std::string>{"mcp_*"}), parent)) ==
        std::set<std::string>{"github__list_issues", "jira__find"});
  CHECK(namesOf(toolsFor(withTools(std::vector<std::string>{"mcp_github_*"}), parent)) ==
        std::set<std::string>{"github__list_issues"});
  CHECK(namesOf(toolsFor(withTools(std::vector<std::string>{"jira__*"}), parent)) ==
        std::set<std::string>{"jira__find"});
  CHECK(namesOf(toolsFor(withTools(std::vector<std::string>{"mcp_github_list_issues", "unknown_tool"}), parent)) ==
        std::set<std::string>{"github__list_issues"});
  CHECK(toolsFor(withTools(std::vector<std::string>{}), parent).empty());
}

TEST_CASE("which agents could run programs: the shell, patterns, every tool, anything not a plain built-in") {
  CHECK(couldRunPrograms(withTools(std::nullopt)));
  CHECK(couldRunPrograms(withTools(std::vector<std::string>{"*"})));
  CHECK(couldRunPrograms(withTools(std::vector<std::string>{"read_file", "run_shell_command"})));
  CHECK(couldRunPrograms(withTools(std::vector<std::string>{"github__list_issues"})));
  CHECK(couldRunPrograms(withTools(std::vector<std::string>{"discovered_tool_build"})));
  CHECK_FALSE(couldRunPrograms(withTools(std::vector<std::string>{"read_file", "grep_search", "replace"})));
  CHECK_FALSE(couldRunPrograms(withTools(std::vector<std::string>{})));
}

TEST_CASE("the built-ins that run no program are every built-in but the ones that execute") {
  TempDir dir;
  tools::ToolRegistry registry;
  tools::ToolContext context;
  context.workspace = std::make_shared<const tools::Workspace>(tools::Workspace::create(dir.str()).value());
  context.globalMemoryFile = (dir.path / "GEMINI.md").string();
  tools::registerBuiltinTools(registry, context, tools::ShellOptions{});
  const auto& safe = builtinsRunningNoPrograms();
  for (const auto& tool : registry.all()) {
    INFO(tool->name());
    const bool listed = std::find(safe.begin(), safe.end(), tool->name()) != safe.end();
    CHECK(listed == (tool->kind() != tools::Kind::execute));
  }
}

TEST_CASE("the catalog: built-ins first, then the workspace's, then the person's, settings and consent") {
  TempDir dir;
  dir.write("ws/agents/reader.md", "---\nname: reader\ndescription: R\ntools: [read_file]\n---\nBody\n");
  dir.write("ws/agents/builder.md", "---\nname: builder\ndescription: B\ntools: [run_shell_command]\n---\nBody\n");
  dir.write("ws/agents/generalist.md", "---\nname: generalist\ndescription: G\n---\nBody\n");
  dir.write("home/agents/builder.md", "---\nname: builder\ndescription: Mine\n---\nBody\n");
  dir.write("home/agents/mine.md", "---\nname: mine\ndescription: M\n---\nBody\n");
  SubagentOptions options;
  options.overrides["codebase_investigator"].enabled = false;
  options.overrides["mine"].maxTurns = 3;
  auto catalog = AgentCatalog::load({(dir.path / "home/agents").string(), (dir.path / "ws/agents").string()}, options);
  std::vector<std::string> order;
  for (const auto& entry : catalog->entries()) order.push_back(entry.agent->name + ":" + std::string(toString(entry.status)));
  CHECK(order == std::vector<std::string>{
                     "codebase_investigator:disabled in settings (agents.overrides)", "generalist:available",
                     "builder:waiting for your consent to the workspace's programs", "reader:available", "mine:available"});
  REQUIRE(catalog->problems().size() == 2);  // the workspace's generalist and the person's builder: names taken
  CHECK(catalog->problems()[0].find("generalist.md: left out: a sub-agent named generalist is already defined (built in)") !=
        std::string::npos);
  CHECK(catalog->find("mine")->maxTurns == 3);
  CHECK_FALSE(catalog->find("builder"));
  CHECK_FALSE(catalog->find("codebase_investigator"));
  auto waiting = catalog->awaitingConsent();
  REQUIRE(waiting.size() == 1);
  CHECK(waiting[0].tools == "run_shell_command");
  CHECK(waiting[0].text.find("name: builder") != std::string::npos);
  catalog->settleConsent(false);
  CHECK_FALSE(catalog->find("builder"));
  CHECK(catalog->awaitingConsent().empty());

  auto again = AgentCatalog::load({"", (dir.path / "ws/agents").string()}, {});
  again->settleConsent(true);
  CHECK(again->find("builder"));

  SubagentOptions off;
  off.enabled = false;
  auto none = AgentCatalog::load({}, off);
  CHECK_FALSE(none->enabled());
  CHECK(none->entries().empty());
}

TEST_CASE("placeholders: ${input} filled, an unknown one is an error naming it") {
  AgentInputs inputs{{"query", "the task"}, {"today", "2026-12-01"}};
  CHECK(fillPlaceholders("Do ${query} by ${today}; keep $HOME and ${ not this }", inputs).value() ==
        "Do the task by 2026-12-01; keep $HOME and ${ not this }");
  auto missing = fillPlaceholders("Use ${cliVersion}", inputs);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message == "the instructions use ${cliVersion}, which is not an input (there are: query, today)");
}

TEST_CASE("a child's progress: steps, the recent calls with their state, its last message") {
  ChildProgress progress("Codebase Investigator Agent");
  CHECK(progress.apply(acp::MessageChunk{acp::MessageChunk::Role::agent, "Looking "}));
  CHECK(progress.apply(acp::MessageChunk{acp::MessageChunk::Role::agent, "around."}));
  CHECK_FALSE(progress.apply(acp::MessageChunk{acp::MessageChunk::Role::thought, "hmm"}));
  acp::ToolCall read;
  read.toolCallId = "call_1";
  read.title = "ReadFile: a.cpp";
  CHECK(progress.apply(read));
  acp::ToolCallUpdate done;
  done.toolCallId = "call_1";
  done.status = acp::ToolCallStatus::completed;
  CHECK(progress.apply(done));
  acp::ToolCall shell;
  shell.toolCallId = "call_2";
  shell.title = "Shell: make";
  CHECK(progress.apply(shell));
  progress.asking("call_2", true);
  acp::ToolCall notice;
  notice.toolCallId = "lathe_retry_1";  // a notice card is not a step
  CHECK_FALSE(progress.apply(notice));
  CHECK(progress.apply(acp::MessageChunk{acp::MessageChunk::Role::agent, "Line one\nline two"}));
  CHECK(progress.steps() == 2);
  CHECK(progress.render() ==
        "**Codebase Investigator Agent** · 2 steps\n\n- ✓ ReadFile: a.cpp\n- ⏸ Shell: make (waiting for your answer)"
        "\n\n> Line one\n> line two");
  CHECK(progress.lastMessage() == "Line one\nline two");
}

TEST_CASE("a replay without child sessions keeps the session's own updates only") {
  std::vector<std::string> shown{
      R"({"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call_1"}})",
      R"({"sessionId":"s1","update":{"sessionUpdate":"subagent_update","sessionId":"s1.call_1"}})",
      R"({"sessionId":"s1.call_1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}})",
      R"({"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_1"}})",
  };
  auto kept = persist::withoutChildSessions(shown, "s1");
  REQUIRE(kept.size() == 2);
  CHECK(kept[0] == shown[0]);
  CHECK(kept[1] == shown[3]);
}

TEST_CASE("a child's limits: its tokens over all requests, the report, and one grace request for complete_task") {
  History history;
  CancelToken none;
  ChildLimits limits(1000);
  CHECK_FALSE(limits.beforeModelRequest(history, none));
  limits.onUpdate(acp::SessionUpdate(acp::UsageUpdate(600, 100000)));
  CHECK_FALSE(limits.beforeModelRequest(history, none));
  limits.onUpdate(acp::SessionUpdate(acp::UsageUpdate(600, 100000)));
  auto spent = limits.beforeModelRequest(history, none);
  REQUIRE(spent);
  CHECK(spent->reason == acp::StopReason::max_tokens);
  CHECK(limits.tokensSpent());
  CHECK(limits.tokens() == 1200);

  limits.beginGrace();
  CHECK(limits.onFunctionCall(FunctionCall{"", "read_file", {}}).action == CallVerdict::Action::refuse);
  CHECK(limits.onFunctionCall(FunctionCall{"", "complete_task", {}}).action == CallVerdict::Action::run);
  CHECK_FALSE(limits.beforeModelRequest(history, none));  // the grace request
  auto after = limits.beforeModelRequest(history, none);  // and no other
  REQUIRE(after);
  CHECK(after->reason == acp::StopReason::end_turn);

  ChildLimits done(1000);
  done.complete("the report");
  done.complete("a second one is ignored");
  CHECK(done.report() == "the report");
  auto stop = done.beforeModelRequest(history, none);
  REQUIRE(stop);
  CHECK(stop->reason == acp::StopReason::end_turn);
}

TEST_CASE("a child's clock: cancelled with its parent, or when its time is used") {
  auto waitCancelled = [](const CancelToken& token) {
    std::promise<void> cancelled;
    auto registration = token.onCancel([&] { cancelled.set_value(); });
    return cancelled.get_future().wait_for(std::chrono::seconds(30)) == std::future_status::ready;
  };
  CancelToken parent = CancelToken::create();
  ChildClock stopped(parent, std::chrono::hours(1));
  parent.cancel();
  CHECK(waitCancelled(stopped.token()));
  CHECK_FALSE(stopped.expired());

  ChildClock quick(CancelToken::create(), std::chrono::milliseconds(1));
  CHECK(waitCancelled(quick.token()));
  CHECK(quick.expired());

  // Paused (the person is asked), its time does not run out; nested pauses count.
  ChildClock asked(CancelToken::create(), std::chrono::hours(1));
  asked.pause();
  asked.pause();
  asked.resume();
  asked.resume();
  CHECK_FALSE(asked.expired());
  CHECK_FALSE(asked.token().cancelled());
}
