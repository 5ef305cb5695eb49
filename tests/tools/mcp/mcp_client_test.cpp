// The MCP client against the scripted test server: the lifecycle, tools over
// pages, calls with exact arguments, progress, cancellation, timeouts,
// list_changed, what the server may ask of a client, secrets kept from the
// child, and every kind of broken server.
#include "tests/tools/mcp/mcp_fixture.h"
#include "tools/process/secret_environment.h"

#include <stdlib.h>

using namespace lathe;
using namespace lathe::testing::mcp;

TEST_CASE("A stdio MCP server's tools are listed over every page and called with the model's arguments") {
  McpHarness h;
  h.startAndWait({h.scripted("test", "good")});
  CHECK(h.servers.connected() == std::vector<std::string>{"test"});
  CHECK(h.servers.takeNotices().empty());
  REQUIRE(h.registry.find("test__echo"));
  CHECK(h.registry.find("test__page2tool"));  // only on the second page
  auto source = h.registry.sourceOf("test__echo");
  REQUIRE(source);
  CHECK(source->group == tools::ToolSource::Group::mcp);
  CHECK(source->server == "test");
  CHECK(source->tool == "echo");
  CHECK(h.registry.find("test__echo")->kind() == tools::Kind::read);  // readOnlyHint
  CHECK(h.registry.find("test__slow")->kind() == tools::Kind::other);
  CHECK(h.registry.find("test__echo")->info().displayName == "echo (test MCP server)");
  auto params = json::parse(R"({"text":"hi"})");
  REQUIRE(params);
  auto built = h.registry.find("test__echo")->build(*params);
  REQUIRE(built.invocation);
  CHECK(built.invocation->description() == R"({"text":"hi"})");  // the title adds the display name

  auto outcome = h.call("test__echo", R"({"text":"hi","extra":[1,2]})");
  CHECK_FALSE(outcome.result.error);
  CHECK(outcome.text().find(R"(echo: {"text":"hi","extra":[1,2]})") != std::string::npos);
  // Exactly the model's arguments, nothing of Lathe's own added.
  CHECK(recordedContains(h.logFile("test"), R"("arguments":{"text":"hi","extra":[1,2]})"));
  CHECK(recordedContains(h.logFile("test"), R"("method":"notifications/initialized")"));
  CHECK(recordedContains(h.logFile("test"), R"("protocolVersion":"2025-11-25")"));
  CHECK(h.call("test__page2tool").text().find("from page 2") != std::string::npos);
}

TEST_CASE("MCP progress notifications arrive as live tool output") {
  McpHarness h;
  h.startAndWait({h.scripted("test", "good")});
  auto outcome = h.call("test__progress");
  CHECK(outcome.text().find("progress done") != std::string::npos);
  REQUIRE(outcome.progress.size() == 3);
  CHECK(outcome.progress[0] == "Progress 1/3: step 1");
  CHECK(outcome.progress[2] == "Progress 3/3: step 3");
}

TEST_CASE("list_changed re-lists the server's tools and bumps the registry generation") {
  McpHarness h;
  h.startAndWait({h.scripted("test", "good")});
  CHECK_FALSE(h.registry.find("test__grown"));
  uint64_t before = h.registry.generation();
  h.call("test__grow");
  CHECK(pollUntil([&] { return h.registry.find("test__grown") != nullptr; }));
  CHECK(h.registry.generation() > before);
  CHECK(h.registry.find("test__echo"));  // the others stay
  CHECK(h.call("test__grown").text().find("grown tool ran") != std::string::npos);
}

TEST_CASE("A cancelled MCP call ends as cancelled and the server is told") {
  McpHarness h;
  h.startAndWait({h.scripted("test", "good")});
  CancelToken cancel = CancelToken::create();
  bool serverHasCall = false;
  std::thread canceller([&] {
    serverHasCall = pollUntil([&] { return recordedContains(h.logFile("test"), R"("name":"slow")"); });
    cancel.cancel();
  });
  auto outcome = h.call("test__slow", "{}", cancel);
  canceller.join();
  CHECK(serverHasCall);
  REQUIRE(outcome.result.error);
  CHECK(outcome.result.error->type == tools::ErrorType::cancelled);
  CHECK(pollUntil([&] { return recordedContains(h.logFile("test"), R"("method":"notifications/cancelled")"); }));
  // The server still works afterwards.
  CHECK(h.call("test__echo").text().find("echo:") != std::string::npos);
}

TEST_CASE("An MCP call past the server's timeout fails clearly and is cancelled") {
  McpHarness h;
  h.startAndWait({h.scripted("test", "good", 1000)});
  auto outcome = h.call("test__slow");
  REQUIRE(outcome.result.error);
  CHECK(outcome.result.error->type == tools::ErrorType::execution_failed);
  CHECK(outcome.result.error->message.find("did not answer the call of slow within 1000 ms") != std::string::npos);
  CHECK(pollUntil([&] { return recordedContains(h.logFile("test"), R"("method":"notifications/cancelled")"); }));
}

TEST_CASE("After a timed-out call Lathe pings: a server that answers stays, a silent one restarts on the next call") {
  McpHarness h;
  h.startAndWait({h.scripted("test", "good", 1000)});
  std::string log = h.logFile("test");
  auto slow = h.call("test__slow");
  REQUIRE(slow.result.error);
  CHECK(slow.result.error->message.find("still answers a ping, so it stays connected") != std::string::npos);
  CHECK(recordedContains(log, R"("method":"ping")"));
  CHECK_FALSE(h.call("test__echo").result.error);
  CHECK(recordedPids(log).size() == 1);  // slow, not hung: the same process

  auto frozen = h.call("test__freeze");
  REQUIRE(frozen.result.error);
  CHECK(frozen.result.error->message.find("did not answer a ping either") != std::string::npos);
  auto pids = recordedPids(log);
  REQUIRE(pids.size() == 1);
  CHECK(pollUntil([&] { return processGone(pids[0]); }, 5s));  // the hung child was ended
  auto again = h.call("test__echo", R"({"text":"fresh"})");
  CHECK_FALSE(again.result.error);
  CHECK(again.text().find("fresh") != std::string::npos);
  CHECK(recordedPids(log).size() == 2);
}

TEST_CASE("isError, images and mixed content from a live server") {
  McpHarness h;
  h.startAndWait({h.scripted("test", "good")});
  auto failed = h.call("test__fail");
  REQUIRE(failed.result.error);
  CHECK(failed.result.error->message.find("it went wrong on purpose") != std::string::npos);
  auto image = h.call("test__image");
  REQUIRE(image.result.llmContent.size() == 2);
  CHECK(image.result.llmContent[1].mimeType == "image/png");
  auto mixedCall = h.call("test__mixed");
  REQUIRE(mixedCall.result.llmContent.size() == 2);  // audio goes inline like images
  CHECK(mixedCall.result.llmContent[1].mimeType == "audio/wav");
  CHECK(mixedCall.result.llmContent[1].data == "UklGRg==");
  auto mixed = mixedCall.text();
  CHECK(mixed.find("embedded text") != std::string::npos);
  CHECK(mixed.find("Resource link: linked.txt") != std::string::npos);
  CHECK(h.call("test__structured").text().find(R"({"temperature":21,"unit":"C"})") != std::string::npos);
}

TEST_CASE("What an MCP server asks of Lathe: ping, roots, and a clean refusal of sampling and elicitation") {
  McpHarness h;
  h.startAndWait({h.scripted("test", "good")});
  h.call("test__ask-client");
  std::string log = h.logFile("test");
  CHECK(pollUntil([&] { return recordedContains(log, R"("answerTo":"elicitation/create")"); }));
  CHECK(recordedContains(log, R"({"answerTo":"ping","answer":{},"error":null})"));
  CHECK(recordedContains(log, R"("answerTo":"roots/list","answer":{"roots":[{"uri":"file://)" + h.root.str()));
  for (const char* refused : {"sampling/createMessage", "elicitation/create"}) {
    bool found = false;
    for (const auto& line : recorded(log)) {
      if (line.find(std::string(R"("answerTo":")") + refused) != std::string::npos) {
        found = true;
        CHECK(line.find(R"("code":-32601)") != std::string::npos);
      }
    }
    CHECK(found);
  }
}

TEST_CASE("A server that crashes mid-call fails that call clearly, the next call restarts it") {
  McpHarness h;
  h.startAndWait({h.scripted("test", "good")});
  auto crashed = h.call("test__crash");
  REQUIRE(crashed.result.error);
  CHECK(crashed.result.error->message.find("stopped during the call of crash") != std::string::npos);
  CHECK(crashed.result.error->message.find("exit 3") != std::string::npos);
  CHECK(crashed.result.error->message.find("crashing on purpose") != std::string::npos);
  auto again = h.call("test__echo", R"({"text":"back"})");
  CHECK_FALSE(again.result.error);
  CHECK(again.text().find("back") != std::string::npos);
  auto pids = recordedPids(h.logFile("test"));
  REQUIRE(pids.size() == 2);
  CHECK(processGone(pids[0]));
  h.servers.shutdown();
  CHECK(pollUntil([&] { return processGone(pids[1]); }, 5s));
}

TEST_CASE("A server that pages tools/list forever is stopped and told, not asked again and again") {
  McpHarness h;
  h.startAndWait({h.scripted("endless", "endless-pages", 5000)});
  auto notices = h.servers.takeNotices();
  REQUIRE(notices.size() == 1);
  CHECK(notices[0].find("tools/list keeps paging (a repeated cursor") != std::string::npos);
  CHECK(h.servers.connected().empty());
}

TEST_CASE("Broken MCP servers each fail clearly once, and nothing is left running") {
  McpHarness h;
  h.startAndWait({h.scripted("hangs", "hang-init", 1500), h.scripted("garbage", "garbage", 1500),
                  h.scripted("exits", "exit"), h.scripted("old", "old-version"),
                  stdioServer("missing", {"/nonexistent/mcp-server"}), h.scripted("fine", "good")});
  auto notices = h.servers.takeNotices();
  CHECK(h.servers.takeNotices().empty());  // told once
  auto noticeFor = [&](const std::string& name) {
    for (const auto& n : notices) {
      if (n.find("\"" + name + "\"") != std::string::npos) return n;
    }
    return std::string();
  };
  CHECK(noticeFor("hangs").find("no answer to initialize within 1500 ms") != std::string::npos);
  CHECK(noticeFor("garbage").find("initialize") != std::string::npos);
  CHECK(noticeFor("exits").find("exit 4") != std::string::npos);
  CHECK(noticeFor("exits").find("refusing to start") != std::string::npos);
  CHECK(noticeFor("old").find("1999-01-01") != std::string::npos);
  CHECK(noticeFor("missing").find("/nonexistent/mcp-server") != std::string::npos);
  CHECK(notices.size() == 5);
  CHECK(h.servers.connected() == std::vector<std::string>{"fine"});
  CHECK(h.call("fine__echo").text().find("echo:") != std::string::npos);
  std::vector<int> pids;
  for (const char* name : {"hangs", "garbage", "old", "fine"}) {
    auto some = recordedPids(h.logFile(name));
    pids.insert(pids.end(), some.begin(), some.end());
  }
  CHECK(pids.size() == 4);
  h.servers.shutdown();
  for (int pid : pids) CHECK(pollUntil([&] { return processGone(pid); }, 5s));
}

TEST_CASE("The server's environment lacks secrets unless its own env names them") {
  const std::vector<std::pair<const char*, const char*>> vars = {
      {"GEMINI_API_KEY", "secret-gemini"}, {"OPENAI_API_KEY", "secret-openai"}, {"MCP_TEST_VISIBLE", "plain"},
      {"GITHUB_TOKEN", "t"}, {"MCP_TEST_DB_PASSWORD", "p"},
      {"MCP_TEST_PAT", "ghp_0123456789abcdefghijklmnopqrstuvwxyz"}};  // named innocently, valued like a token
  for (const auto& [name, value] : vars) ::setenv(name, value, 1);
  McpHarness h;
  h.startAndWait({h.scripted("test", "good", 600'000, {{"OPENAI_API_KEY", "given"}})});
  for (const auto& [name, value] : vars) ::unsetenv(name);
  CHECK(recordedContains(h.logFile("test"),
                         R"("env":{"GEMINI_API_KEY":null,"OPENAI_API_KEY":"given","MCP_TEST_VISIBLE":"plain",)"
                         R"("GITHUB_TOKEN":null,"MCP_TEST_DB_PASSWORD":null,"MCP_TEST_PAT":null})"));
}

TEST_CASE("Secret variables: by name as Gemini CLI drops them, or by a value shaped like a key") {
  for (const char* name : {"GEMINI_API_KEY", "GITHUB_TOKEN", "aws_secret_access_key", "PGPASSWORD", "NPM_AUTH",
                           "GOOGLE_APPLICATION_CREDENTIALS", "SSH_PRIVATE", "NODE_EXTRA_CA_CERTS", "DOCKER_CREDS"}) {
    INFO(name);
    CHECK(tools::process::isSecretVariable(name, "x"));
  }
  for (const char* value : {"ghp_0123456789abcdefghijklmnopqrstuvwxyz", "github_pat_11ABCDEFG0123456789_abcdefghij",
                            "AKIAIOSFODNN7EXAMPLE", "AIzaSyA-0123456789abcdefghijklmnopqrstu",
                            "-----BEGIN OPENSSH PRIVATE KEY-----\nabc", "xoxb-1234567890-abcdefghij",
                            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "postgres://app:hunter2@db:5432/x",
                            "http://me:pw@proxy.local:3128"}) {
    INFO(value);
    CHECK(tools::process::isSecretVariable("INNOCENT", value));
  }
  for (const char* name : {"PATH", "HOME", "LANG", "TERM", "NODE_OPTIONS", "EDITOR", "XDG_CONFIG_HOME"}) {
    INFO(name);
    CHECK_FALSE(tools::process::isSecretVariable(name, "/usr/bin:/bin"));
  }
  CHECK_FALSE(tools::process::isSecretVariable("GREETING", "sk"));  // too short to be a key
  CHECK_FALSE(tools::process::isSecretVariable("HOMEPAGE", "https://user@example.com/a:b"));  // no password
}

TEST_CASE("includeTools and excludeTools choose which tools register") {
  McpHarness h;
  auto only = h.scripted("only", "good");
  only.includeTools = {"echo", "fail(with args)"};
  auto except = h.scripted("except", "good");
  except.excludeTools = {"echo"};
  h.startAndWait({only, except});
  CHECK(h.registry.find("only__echo"));
  CHECK(h.registry.find("only__fail"));
  CHECK_FALSE(h.registry.find("only__slow"));
  CHECK_FALSE(h.registry.find("except__echo"));
  CHECK(h.registry.find("except__slow"));
}

TEST_CASE("Two servers whose names clean alike both keep their tools") {
  McpHarness h;
  h.startAndWait({h.scripted("a b", "good")});
  h.startAndWait({h.scripted("a_b", "good")});
  REQUIRE(h.registry.find("a_b__echo"));
  CHECK(h.registry.sourceOf("a_b__echo")->server == "a b");  // the first keeps the plain name
  int fromSecond = 0;
  for (const auto& tool : h.registry.all()) {
    auto source = h.registry.sourceOf(tool->name());
    if (source && source->server == "a_b" && source->tool == "echo") ++fromSecond;
  }
  CHECK(fromSecond == 1);
}
