// MCP prompts against the scripted server (mcp_test_server.mjs prompts) and
// server-everything: listed over every page, re-listed on list_changed,
// fetched with arguments, their messages mapped to text and inline data.
#include <catch2/catch.hpp>

#include <atomic>

#include "tests/tools/mcp/mcp_fixture.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::mcp;

namespace {

std::vector<std::string> promptNames(const std::vector<tools::mcp::ServerStatus>& servers) {
  std::vector<std::string> names;
  for (const auto& server : servers) {
    for (const auto& prompt : server.prompts) names.push_back(server.name + "/" + prompt.name);
  }
  return names;
}

}  // namespace

TEST_CASE("MCP prompts are listed over every page and re-listed when the server says they changed") {
  McpHarness h;
  std::atomic<int> changes{0};
  h.servers.setPromptsListener([&] { ++changes; });
  h.startAndWait({h.scripted("test", "prompts")});
  auto status = h.servers.status();
  REQUIRE(status.size() == 1);
  CHECK(status[0].state == tools::mcp::ServerStatus::State::connected);
  CHECK(promptNames(status) == std::vector<std::string>{"test/greet", "test/help", "test/two words"});
  const auto& greet = status[0].prompts[0];
  CHECK(greet.description == "Greets someone");
  REQUIRE(greet.arguments.size() == 2);
  CHECK(greet.arguments[0].name == "name");
  CHECK(greet.arguments[0].required);
  CHECK_FALSE(greet.arguments[1].required);
  CHECK(changes >= 1);

  int before = changes;
  h.call("test__grow");
  CHECK(pollUntil([&] { return promptNames(h.servers.status()).size() == 4; }));
  CHECK(promptNames(h.servers.status()).back() == "test/grown-prompt");
  CHECK(changes > before);
}

TEST_CASE("prompts/get sends the arguments and maps text, images and embedded resources") {
  McpHarness h;
  h.startAndWait({h.scripted("test", "prompts")});
  auto messages = h.servers.getPrompt("test", "greet", R"({"name":"Ada","greeting":"Hi"})", CancelToken::create());
  REQUIRE(messages);
  REQUIRE(messages->size() == 3);
  CHECK((*messages)[0].text == "Hi, Ada!");
  CHECK((*messages)[1].isInline());
  CHECK((*messages)[1].mimeType == "image/png");
  CHECK((*messages)[1].data == "iVBORw0KGgo=");
  CHECK((*messages)[2].text == "--- Content of test://notes.txt ---\nthe notes\n--- End of test://notes.txt ---");
  CHECK(recordedContains(h.logFile("test"), R"("method":"prompts/get","params":{"name":"greet","arguments":{"name":"Ada","greeting":"Hi"}})"));
  auto unknown = h.servers.getPrompt("nobody", "greet", "{}", CancelToken::create());
  REQUIRE_FALSE(unknown);
  CHECK_THAT(unknown.error().message, Catch::Contains("nobody"));
}

TEST_CASE("server-everything's prompts: args-prompt with its arguments, and a server without prompts has none") {
  McpHarness h;
  h.startAndWait({stdioServer("everything", {"node", kEverything, "stdio"}), h.scripted("plain", "good")});
  auto status = h.servers.status();
  REQUIRE(status.size() == 2);
  auto names = promptNames(status);
  CHECK(std::find(names.begin(), names.end(), "everything/args-prompt") != names.end());
  CHECK(std::none_of(names.begin(), names.end(), [](const std::string& n) { return n.rfind("plain/", 0) == 0; }));
  auto messages = h.servers.getPrompt("everything", "args-prompt", R"({"city":"Paris"})", CancelToken::create());
  REQUIRE(messages);
  REQUIRE(messages->size() == 1);
  CHECK((*messages)[0].text == "What's weather in Paris?");
}
