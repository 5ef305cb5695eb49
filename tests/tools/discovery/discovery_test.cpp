// Command-based tool discovery: every accepted output shape, schemas from
// parametersJsonSchema and Gemini-style parameters, calls that succeed, fail,
// time out, and discovery output that is unusable (a clear error, no crash).
// The commands are tests/support/discovery_tool.sh, run for real.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <thread>

#include "tests/support/temp_dir.h"
#include "tests/support/wait.h"
#include "tests/tools/core/tool_fixture.h"
#include "tools/core/registry.h"
#include "tools/discovery/declarations.h"
#include "tools/discovery/discovered_tool.h"
#include "tools/process/captured_run.h"

using namespace lathe;
using namespace lathe::tools;
using namespace lathe::tools::discovery;

namespace {

const std::string kScript = std::string(LATHE_SOURCE_DIR) + "/tests/support/discovery_tool.sh";

DiscoveryOptions optionsFor(const std::string& shape, const std::string& cwd) {
  DiscoveryOptions options;
  options.discoveryCommand = "bash '" + kScript + "' discover " + shape;
  options.callCommand = "bash '" + kScript + "' call";
  options.cwd = cwd;
  return options;
}

std::vector<std::string> names(const std::vector<std::unique_ptr<Tool>>& tools) {
  std::vector<std::string> out;
  for (const auto& tool : tools) out.push_back(tool->name());
  return out;
}

}  // namespace

TEST_CASE("discovery accepts bare declarations, functionDeclarations and function_declarations") {
  testing::TempDir dir;
  struct Row {
    const char* shape;
    std::vector<std::string> expected;
  };
  const Row rows[] = {
      {"bare", {"discovered_tool_echo"}},
      {"grouped", {"discovered_tool_echo", "discovered_tool_fail"}},
      {"snake", {"discovered_tool_echo", "discovered_tool_stderr_ok"}},
      {"parameters", {"discovered_tool_echo"}},
      {"empty_list", {}},
  };
  for (const auto& row : rows) {
    INFO(row.shape);
    auto options = optionsFor(row.shape, dir.str());
    auto tools = discoverTools(options, CancelToken::create());
    REQUIRE(tools);
    CHECK(names(*tools) == row.expected);
    for (const auto& tool : *tools) {
      CHECK(tool->kind() == Kind::other);
      CHECK_THAT(tool->info().description, Catch::Contains("call"));
    }
  }
}

TEST_CASE("declarations: schemas from either field, capitals of Gemini types lowered, none means an empty object") {
  auto parsed = parseDeclarations(R"J([
    {"name":"a","description":"A","parametersJsonSchema":{"type":"object","properties":{"x":{"type":"string"}}}},
    {"name":"b","parameters":{"type":"OBJECT","properties":{"n":{"type":"INTEGER"},"l":{"type":"ARRAY","items":{"type":"STRING"}}}}},
    {"name":"c"}
  ])J");
  REQUIRE(parsed);
  REQUIRE(parsed->size() == 3);
  CHECK((*parsed)[0].description == "A");
  CHECK_THAT((*parsed)[0].schema, Catch::Contains(R"("x":{"type":"string"})"));
  CHECK((*parsed)[1].schema == R"({"type":"object","properties":{"n":{"type":"integer"},"l":{"type":"array","items":{"type":"string"}}}})");
  CHECK((*parsed)[2].schema == R"({"type":"object","properties":{}})");

  struct Bad {
    const char* output;
    const char* says;
  };
  const Bad bad[] = {
      {"", "printed nothing"},
      {"not json", "not JSON"},
      {R"({"name":"a"})", "must be a JSON array"},
      {R"([{"description":"x"}])", "item 0: a declaration needs a \"name\""},
      {R"([1])", "item 0: expected an object"},
      {R"([{"functionDeclarations":{}}])", "item 0.functionDeclarations: expected an array"},
      {R"([{"name":"a"},{"function_declarations":[{"name":"b","parametersJsonSchema":[]}]}])",
       "item 1.function_declarations[0].parametersJsonSchema: expected an object"},
  };
  for (const auto& row : bad) {
    INFO(row.output);
    auto result = parseDeclarations(row.output);
    REQUIRE_FALSE(result);
    CHECK_THAT(result.error().message, Catch::Contains(row.says));
  }
}

TEST_CASE("a Gemini-style schema validates the model's arguments") {
  testing::ToolFixture fixture;
  auto tools = discoverTools(optionsFor("parameters", fixture.root.str()), CancelToken::create());
  REQUIRE(tools);
  REQUIRE(tools->size() == 1);
  auto result = fixture.run(*tools->front(), R"({"n":"seven"})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::invalid_params);
  result = fixture.run(*tools->front(), R"({"n":7})");
  CHECK_FALSE(result.error);
  CHECK(testing::llmText(result) == R"({"tool":"echo","got":{"n":7}})");
}

TEST_CASE("bad discovery output or a failing command is a clear error, not a crash") {
  testing::TempDir dir;
  struct Row {
    const char* shape;
    const char* says;
  };
  const Row rows[] = {
      {"garbage", "printed something unusable: its output is not JSON"},
      {"object", "must be a JSON array"},
      {"nameless", "needs a \"name\""},
      {"fail", "failed: it exited with code 4. Its errors:\ncannot list tools"},
  };
  for (const auto& row : rows) {
    INFO(row.shape);
    auto tools = discoverTools(optionsFor(row.shape, dir.str()), CancelToken::create());
    REQUIRE_FALSE(tools);
    CHECK_THAT(tools.error().message, Catch::Contains("The tool discovery command `bash"));
    CHECK_THAT(tools.error().message, Catch::Contains(row.says));
  }
  auto options = optionsFor("slow", dir.str());
  options.discoveryTimeout = std::chrono::milliseconds(300);
  auto slow = discoverTools(options, CancelToken::create());
  REQUIRE_FALSE(slow);
  CHECK_THAT(slow.error().message, Catch::Contains("did not finish"));
}

TEST_CASE("calls: the command does not inherit secrets from Lathe's environment") {
  testing::ToolFixture fixture;
  ::setenv("GITHUB_TOKEN", "secret-token", 1);
  ::setenv("LATHE_TEST_VISIBLE", "plain", 1);
  auto tools = discoverTools(optionsFor("env", fixture.root.str()), CancelToken::create());
  REQUIRE(tools);
  REQUIRE(tools->size() == 1);
  auto result = fixture.run(*(*tools)[0], "{}");
  ::unsetenv("GITHUB_TOKEN");
  ::unsetenv("LATHE_TEST_VISIBLE");
  REQUIRE_FALSE(result.error);
  CHECK(testing::llmText(result) == R"({"token":"","visible":"plain"})");
}

TEST_CASE("calls: stdout is the result, a failure shows exit status, stdout and stderr") {
  testing::ToolFixture fixture;
  auto options = optionsFor("grouped", fixture.root.str());
  auto tools = discoverTools(options, CancelToken::create());
  REQUIRE(tools);
  REQUIRE(tools->size() == 2);
  const Tool& echo = *(*tools)[0];
  const Tool& fail = *(*tools)[1];

  auto ok = fixture.run(echo, R"({"text":"hi \"there\"","n":[1,2]})");
  REQUIRE_FALSE(ok.error);
  CHECK(testing::llmText(ok) == R"({"tool":"echo","got":{"text":"hi \"there\"","n":[1,2]}})");

  auto failed = fixture.run(fail, "{}");
  REQUIRE(failed.error);
  CHECK(failed.error->type == ErrorType::execution_failed);
  CHECK_THAT(failed.error->message, Catch::Contains("exited with code 3"));
  CHECK_THAT(failed.error->message, Catch::Contains("Stdout: partial output"));
  CHECK_THAT(failed.error->message, Catch::Contains("Stderr: it broke"));
  CHECK_THAT(testing::llmText(failed), Catch::Contains("it broke"));  // the model reads it

  // Exit 0 with warnings on stderr is a success.
  auto snake = discoverTools(optionsFor("snake", fixture.root.str()), CancelToken::create());
  REQUIRE(snake);
  auto warned = fixture.run(*(*snake)[1], "{}");
  CHECK_FALSE(warned.error);
  CHECK(testing::llmText(warned) == "fine\n");
}

TEST_CASE("calls: asked about, the name is passed as one argument, odd names are cleaned") {
  testing::ToolFixture fixture;
  auto tools = discoverTools(optionsFor("odd_name", fixture.root.str()), CancelToken::create());
  REQUIRE(tools);
  REQUIRE(tools->size() == 1);
  const Tool& odd = *tools->front();
  CHECK(odd.name() == "discovered_tool_my_tool_");
  CHECK(odd.info().displayName == "my tool!");
  auto built = odd.build(json::parse("{}").value());
  REQUIRE(built.invocation);
  auto details = built.invocation->shouldConfirmExecute(CancelToken::create());
  REQUIRE(details);
  REQUIRE(details->has_value());
  auto* info = std::get_if<InfoConfirmation>(&**details);
  REQUIRE(info);
  CHECK_THAT(info->prompt, Catch::Contains("call my tool!"));
  auto result = built.invocation->execute(CancelToken::create(), [](const std::string&) {});
  CHECK_FALSE(result.error);
  CHECK(testing::llmText(result) == "odd name ok");
  CHECK(discoveredToolName(std::string(100, 'a')).size() == 63);
}

TEST_CASE("calls: cancel and timeout end the command") {
  testing::ToolFixture fixture;
  auto options = optionsFor("bare", fixture.root.str());
  Declaration slow{"slow", "", R"({"type":"object"})"};
  options.callTimeout = std::chrono::milliseconds(300);
  auto tool = makeDiscoveredTool(slow, options);
  auto timedOut = fixture.run(*tool, "{}");
  REQUIRE(timedOut.error);
  CHECK_THAT(timedOut.error->message, Catch::Contains("did not finish"));

  options.callTimeout = std::chrono::milliseconds(60'000);
  auto patient = makeDiscoveredTool(slow, options);
  auto built = patient->build(json::parse("{}").value());
  REQUIRE(built.invocation);
  auto cancel = CancelToken::create();
  bool running = false;
  std::thread stopper([&] {
    // The command's marker file is the only sign that it runs: polled.
    running = testing::pollUntil([&] { return std::filesystem::exists(fixture.root.path / "slow.started"); });
    cancel.cancel();
  });
  auto cancelled = built.invocation->execute(cancel, [](const std::string&) {});
  stopper.join();
  CHECK(running);
  REQUIRE(cancelled.error);
  CHECK(cancelled.error->type == ErrorType::cancelled);
}

TEST_CASE("captured runs: big input to a child that reads none does not hang or kill us") {
  process::CapturedRunSpec spec;
  spec.argv = {"bash", "-c", "exit 0"};
  spec.input = std::string(4 * 1024 * 1024, 'x');
  auto run = process::runCaptured(spec, CancelToken::create());
  REQUIRE(run);
  CHECK(run->exit.success());
  spec.argv = {"bash", "-c", "wc -c; echo err >&2"};
  auto counted = process::runCaptured(spec, CancelToken::create());
  REQUIRE(counted);
  CHECK(counted->out == "4194304\n");
  CHECK(counted->err == "err\n");
  // A command that closes its outputs and lingers still ends at the deadline.
  spec.argv = {"bash", "-c", "exec >&- 2>&-; sleep 30"};
  spec.input.clear();
  spec.timeout = std::chrono::milliseconds(300);
  auto lingering = process::runCaptured(spec, CancelToken::create());
  REQUIRE(lingering);
  CHECK(lingering->timedOut);
  CHECK_FALSE(lingering->ok());
  spec.timeout = std::chrono::milliseconds(60'000);
  spec.argv = {"bash", "-c", "head -c 5000 /dev/zero"};
  spec.input.clear();
  spec.maxOutputBytes = 1000;
  auto big = process::runCaptured(spec, CancelToken::create());
  REQUIRE(big);
  CHECK(big->outputTooLarge);
  CHECK(big->out.size() == 1000);
}

TEST_CASE("discovered tools sit in their own group of the registry") {
  testing::TempDir dir;
  auto tools = discoverTools(optionsFor("grouped", dir.str()), CancelToken::create());
  REQUIRE(tools);
  ToolRegistry registry(ToolFilter{{}, {"discovered_tool_fail"}});
  for (auto& tool : *tools) REQUIRE(registry.add(std::move(tool), {ToolSource::Group::discovered, "", ""}));
  CHECK(registry.find("discovered_tool_echo"));
  CHECK_FALSE(registry.find("discovered_tool_fail"));  // tools.exclude names it
  CHECK(registry.sourceOf("discovered_tool_echo")->group == ToolSource::Group::discovered);
}
