// The slash-command seam: parsing a prompt's command line, the registry
// (names, groups, announcements to the editor) and dispatch in a real
// session against the fake Gemini server.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/engine/context/context_fixture.h"

#include "engine/commands/builtin_commands.h"
#include "engine/commands/command_dispatch.h"
#include "engine/commands/mcp_prompt_commands.h"
#include "engine/commands/prompt_arguments.h"
#include "engine/commands/command_registry.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::ContextFixture;
using lathe::testing::textReply;

namespace {

SlashCommand echoCommand(std::string name, std::string group = "") {
  return SlashCommand{name, "echoes its input", std::string("text"),
                      [](const CommandContext& c) -> Result<CommandOutcome> {
                        c.say("echo:" + std::string(c.input));
                        return CommandOutcome::done();
                      },
                      std::move(group)};
}

std::vector<std::string> names(const acp::AvailableCommandsUpdate& update) {
  std::vector<std::string> out;
  for (const auto& c : update.availableCommands) out.push_back(c.name);
  return out;
}

}  // namespace

TEST_CASE("commands: a command line is a slash, a name, and the rest trimmed", "[commands]") {
  auto line = parseCommandLine("  /memory add   the sky is blue \n");
  REQUIRE(line);
  CHECK(line->name == "memory");
  CHECK(line->input == "add   the sky is blue");
  auto bare = parseCommandLine("/help");
  REQUIRE(bare);
  CHECK(bare->name == "help");
  CHECK(bare->input.empty());
  auto prefixed = parseCommandLine("/everything:args-prompt\tcity=Paris");
  REQUIRE(prefixed);
  CHECK(prefixed->name == "everything:args-prompt");
  CHECK(prefixed->input == "city=Paris");
  // A path is not a command name; neither is a lone slash nor text before it.
  CHECK_FALSE(parseCommandLine("/usr/lib/x is missing"));
  CHECK_FALSE(parseCommandLine("/"));
  CHECK_FALSE(parseCommandLine("/ help"));
  CHECK_FALSE(parseCommandLine("please /help"));
  CHECK_FALSE(parseCommandLine(""));
}

TEST_CASE("commands: the registry refuses bad and taken names and replaces a group at once", "[commands]") {
  std::vector<acp::AvailableCommandsUpdate> sent;
  CommandRegistry registry([&](const acp::AvailableCommandsUpdate& u) { sent.push_back(u); });
  REQUIRE(registry.add(echoCommand("echo")).ok());
  CHECK_FALSE(registry.add(echoCommand("echo")).ok());
  CHECK_FALSE(registry.add(echoCommand("has space")).ok());
  CHECK_FALSE(registry.add(SlashCommand{"nohandler", "d", std::nullopt, {}, ""}).ok());
  CHECK(sent.empty());  // nothing is announced before the editor knows the session

  registry.announce();
  REQUIRE(sent.size() == 1);
  CHECK(names(sent.back()) == std::vector<std::string>{"echo"});
  REQUIRE(sent.back().availableCommands[0].inputHint == std::optional<std::string>("text"));

  auto refused = registry.replaceGroup("mcp", {echoCommand("a"), echoCommand("echo"), echoCommand("b")});
  REQUIRE(refused.size() == 1);
  CHECK_THAT(refused[0], Catch::Contains("echo") && Catch::Contains("taken"));
  REQUIRE(sent.size() == 2);  // one change, one update
  CHECK(names(sent.back()) == std::vector<std::string>{"a", "b", "echo"});
  CHECK(registry.find("a")->group == "mcp");

  registry.replaceGroup("mcp", {echoCommand("c")});
  CHECK(names(sent.back()) == std::vector<std::string>{"c", "echo"});
  registry.replaceGroup("mcp", {echoCommand("c")});  // the same again: nothing to tell
  CHECK(sent.size() == 3);
  CHECK(registry.remove("c"));
  CHECK_FALSE(registry.remove("c"));
  CHECK(names(sent.back()) == std::vector<std::string>{"echo"});
  CHECK(sent.size() == 4);
}

TEST_CASE("commands: a known command runs on the turn with its input and nothing reaches the model", "[commands]") {
  ContextFixture f;
  REQUIRE(f.commands->registry().add(echoCommand("echo")).ok());
  auto stop = f.prompt("/echo  hello there ");
  REQUIRE(stop.ok());
  CHECK(*stop == acp::StopReason::end_turn);
  CHECK(f.agentText() == "echo:hello there");
  CHECK(f.requests().empty());
  CHECK(f.session->history().empty());
}

TEST_CASE("commands: an unknown /name goes to the model as the person wrote it", "[commands]") {
  ContextFixture f;
  f.server.push(textReply("sure"));
  auto stop = f.prompt("/nosuchcommand do things");
  REQUIRE(stop.ok());
  auto requests = f.requests();
  REQUIRE(requests.size() == 1);
  CHECK_THAT(requests[0].body, Catch::Contains("/nosuchcommand do things"));
  CHECK(f.agentText() == "sure");
}

TEST_CASE("commands: a command can turn into a model turn with its own parts, attachments after", "[commands]") {
  ContextFixture f;
  REQUIRE(f.commands->registry()
              .add(SlashCommand{"ask", "asks the model", std::nullopt,
                                [](const CommandContext& c) -> Result<CommandOutcome> {
                                  return CommandOutcome::ask({Part::makeText("EXPANDED<" + std::string(c.input) + ">")});
                                },
                                ""})
              .ok());
  f.server.push(textReply("answered"));
  std::vector<acp::ContentBlock> blocks{acp::TextBlock{"/ask what"}, acp::TextBlock{"ATTACHED-TEXT"}};
  auto stop = f.session->prompt(blocks, CancelToken());
  REQUIRE(stop.ok());
  auto requests = f.requests();
  REQUIRE(requests.size() == 1);
  const std::string& body = requests[0].body;
  CHECK(body.find("EXPANDED<what>") != std::string::npos);
  CHECK(body.find("ATTACHED-TEXT") > body.find("EXPANDED<what>"));
  CHECK(body.find("/ask") == std::string::npos);
  CHECK(f.agentText() == "answered");
}

TEST_CASE("commands: a failing command tells the person and ends the turn", "[commands]") {
  ContextFixture f;
  REQUIRE(f.commands->registry()
              .add(SlashCommand{"fail", "fails", std::nullopt,
                                [](const CommandContext&) -> Result<CommandOutcome> {
                                  return makeError(Errc::invalid_params, "missing argument \"city\"");
                                },
                                ""})
              .ok());
  auto stop = f.prompt("/fail");
  REQUIRE(stop.ok());
  CHECK(*stop == acp::StopReason::end_turn);
  CHECK(f.agentText() == "/fail: missing argument \"city\"");
  CHECK(f.requests().empty());
}

TEST_CASE("commands: /compress is a command of every session with context hooks", "[commands]") {
  ContextFixture f;
  auto compress = f.commands->registry().find("compress");
  REQUIRE(compress);
  CHECK_FALSE(compress->inputHint);
}

TEST_CASE("commands: prompt arguments: positional in declared order, --name=value, quotes, clear errors", "[commands]") {
  tools::mcp::ListedPrompt prompt{"args", "", "", {{"city", "Name of the city", true}, {"state", "", false}}};
  auto both = promptArguments(prompt, R"("San Antonio" Texas)");
  REQUIRE(both.ok());
  CHECK(*both == std::map<std::string, std::string>{{"city", "San Antonio"}, {"state", "Texas"}});
  auto named = promptArguments(prompt, "--state=Texas Austin");
  REQUIRE(named.ok());
  CHECK(*named == std::map<std::string, std::string>{{"city", "Austin"}, {"state", "Texas"}});
  auto escaped = promptArguments(prompt, R"(--city="New York" 'it''s' )");
  REQUIRE(escaped.ok());
  CHECK(escaped->at("city") == "New York");
  CHECK(escaped->at("state") == "its");
  auto missing = promptArguments(prompt, "--state=Texas");
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error().message, Catch::Contains("missing the required argument \"city\"") &&
                                          Catch::Contains("<city> [state]"));
  auto unknown = promptArguments(prompt, "--country=US Paris");
  REQUIRE_FALSE(unknown.ok());
  CHECK_THAT(unknown.error().message, Catch::Contains("no argument \"country\""));
  auto tooMany = promptArguments(prompt, "a b c");
  REQUIRE_FALSE(tooMany.ok());
  CHECK_THAT(tooMany.error().message, Catch::Contains("too many values"));
  auto open = promptArguments(prompt, "\"unclosed");
  REQUIRE_FALSE(open.ok());
  CHECK_THAT(open.error().message, Catch::Contains("not closed"));
  CHECK(promptArguments(tools::mcp::ListedPrompt{"none", "", "", {}}, "").ok());
  CHECK(commandNameFor("two words/x") == "two_words_x");
}

TEST_CASE("commands: MCP prompts become commands, prefixed by server where names collide", "[commands]") {
  ContextFixture f;
  addBuiltinCommands(*f.session, f.commands->registry());
  auto server = [](const std::string& name) {
    tools::mcp::ServerConfig config;
    config.name = name;
    config.transport = tools::mcp::StdioTransport{
        "node", {std::string(LATHE_SOURCE_DIR) + "/tests/support/mcp_test_server.mjs", "prompts"}, {}, std::nullopt};
    return config;
  };
  // Once announced (as session/new does), the registry tells the editor of each change.
  f.commands->registry().announce();
  auto waitFor = [&](const std::string& name) {
    return f.editor.waitUntil<acp::AvailableCommandsUpdate>([&](const acp::AvailableCommandsUpdate& update) {
             auto all = names(update);
             return std::find(all.begin(), all.end(), name) != all.end();
           }) &&
           f.commands->registry().has(name);
  };
  f.session->startMcpServers({server("one")});
  REQUIRE(waitFor("greet"));
  CHECK(f.commands->registry().has("one:help"));  // /help is Lathe's own
  CHECK(f.commands->registry().has("two_words"));
  CHECK(f.commands->registry().find("help")->group.empty());
  REQUIRE(f.commands->registry().find("greet")->inputHint == std::optional<std::string>("<name> [greeting]"));

  f.session->startMcpServers({server("two")});
  REQUIRE(waitFor("two:greet"));
  CHECK(f.commands->registry().has("one:greet"));  // renamed once the other server offers it too
  CHECK_FALSE(f.commands->registry().has("greet"));

  // Running one sends its messages to the model as the user's turn.
  f.server.push(textReply("hi back"));
  REQUIRE(f.prompt("/two:greet Ada").value() == acp::StopReason::end_turn);
  auto requests = f.requests();
  REQUIRE(requests.size() == 1);
  CHECK_THAT(requests[0].body, Catch::Contains("Hello, Ada!") && Catch::Contains("iVBORw0KGgo=") &&
                                   Catch::Contains("the notes"));
  // A missing argument sends nothing.
  REQUIRE(f.prompt("/one:greet").value() == acp::StopReason::end_turn);
  CHECK(f.requests().size() == 1);
  CHECK_THAT(f.agentText(), Catch::Contains("missing the required argument \"name\""));
}
