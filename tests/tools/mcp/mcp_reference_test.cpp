// The MCP client against the reference servers from npm, pinned in
// scripts/npm: @modelcontextprotocol/server-everything (every content type,
// progress, roots, list_changed) and @modelcontextprotocol/server-filesystem.
#include "tests/tools/mcp/mcp_fixture.h"

#include <stdlib.h>

#include <future>
#include <mutex>
#include <thread>

using namespace lathe;
using namespace lathe::testing::mcp;

namespace {

mcp::ServerConfig everything() { return stdioServer("everything", {"node", kEverything, "stdio"}); }

}  // namespace

TEST_CASE("server-everything over stdio: tools listed and every content type mapped") {
  McpHarness h;
  h.startAndWait({everything()});
  REQUIRE(h.servers.connected() == std::vector<std::string>{"everything"});
  for (const char* tool : {"echo", "get-sum", "get-tiny-image", "get-resource-links", "get-resource-reference",
                           "get-structured-content", "trigger-long-running-operation"}) {
    CAPTURE(tool);
    CHECK(h.registry.find(std::string("everything__") + tool));
  }
  CHECK(h.call("everything__echo", R"({"message":"hello there"})").text().find("hello there") != std::string::npos);
  CHECK(h.call("everything__get-sum", R"({"a":2,"b":40})").text().find("42") != std::string::npos);

  auto image = h.call("everything__get-tiny-image");
  bool inlineImage = false;
  for (const auto& part : image.result.llmContent) inlineImage = inlineImage || part.mimeType == "image/png";
  CHECK(inlineImage);

  CHECK(h.call("everything__get-resource-links", R"({"count":2})").text().find("Resource link:") != std::string::npos);
  CHECK(h.call("everything__get-resource-reference", R"({"resourceType":"Text","resourceId":1})").text().find(
            "Resource demo://resource/") != std::string::npos);
  CHECK(h.call("everything__get-resource-reference", R"({"resourceType":"Blob","resourceId":2})").text().find(
            "Embedded resource demo://resource/") != std::string::npos);
  CHECK(h.call("everything__get-structured-content", R"({"location":"Chicago"})").text().find("temperature") !=
        std::string::npos);

  // Arguments that break the server's schema are refused before anything is sent.
  auto params = json::parse(R"({"a":"two","b":1})");
  REQUIRE(params);
  auto bad = h.registry.find("everything__get-sum")->build(*params);
  REQUIRE(bad.error);
  CHECK(bad.error->message.find("a") != std::string::npos);
}

TEST_CASE("server-everything: progress, cancellation, roots and list_changed") {
  McpHarness h;
  h.startAndWait({everything()});
  auto progressed = h.call("everything__trigger-long-running-operation", R"({"duration":1,"steps":2})");
  CHECK_FALSE(progressed.result.error);
  CHECK(progressed.progress.size() == 2);
  CHECK(progressed.progress.front().rfind("Progress 1/2", 0) == 0);

  // Cancelled once the operation runs: its first progress report says so.
  CancelToken cancel = CancelToken::create();
  std::promise<void> running;
  std::once_flag first;
  std::thread canceller([cancel, ran = running.get_future()] {
    ran.wait();
    cancel.cancel();
  });
  auto start = std::chrono::steady_clock::now();
  auto cancelled = h.call("everything__trigger-long-running-operation", R"({"duration":30,"steps":30})", cancel,
                          [&](const std::string&) { std::call_once(first, [&] { running.set_value(); }); });
  std::call_once(first, [&] { running.set_value(); });  // no progress at all: let the canceller go
  canceller.join();
  REQUIRE(cancelled.result.error);
  CHECK(cancelled.result.error->type == tools::ErrorType::cancelled);
  CHECK(std::chrono::steady_clock::now() - start < 20s);  // a hang guard, not a speed claim

  // get-roots-list is registered once the server learns the client has roots,
  // announced with list_changed.
  REQUIRE(pollUntil([&] { return h.registry.find("everything__get-roots-list") != nullptr; }));
  CHECK(h.call("everything__get-roots-list").text().find("file://" + h.root.str()) != std::string::npos);
}

TEST_CASE("server-everything's environment has no API key of Lathe's") {
  ::setenv("GEMINI_API_KEY", "secret-gemini", 1);
  McpHarness h;
  h.startAndWait({everything()});
  ::unsetenv("GEMINI_API_KEY");
  std::string env = h.call("everything__get-env").text();
  CHECK(env.find("PATH") != std::string::npos);
  CHECK(env.find("secret-gemini") == std::string::npos);
}

TEST_CASE("server-filesystem: its tools read the workspace") {
  McpHarness h;
  h.root.write("notes/hello.txt", "hello from the file\n");
  h.startAndWait({stdioServer("fs", {"node", kFilesystem, h.root.str()})});
  REQUIRE(h.servers.connected() == std::vector<std::string>{"fs"});
  REQUIRE(h.registry.find("fs__read_text_file"));
  CHECK(h.registry.find("fs__read_text_file")->isReadOnly());
  auto read = h.call("fs__read_text_file", R"({"path":")" + h.root.str() + R"(/notes/hello.txt"})");
  CHECK_FALSE(read.result.error);
  CHECK(read.text().find("hello from the file") != std::string::npos);
  auto outside = h.call("fs__read_text_file", R"({"path":"/etc/hostname"})");
  CHECK(outside.result.error);
}

TEST_CASE("server-everything's resources: listed and read through list_mcp_resources and read_mcp_resource") {
  McpHarness h;
  h.startAndWait({everything()});
  REQUIRE(h.registry.find("list_mcp_resources"));
  REQUIRE(h.registry.find("read_mcp_resource"));
  CHECK(h.registry.find("read_mcp_resource")->isReadOnly());
  std::string listed = h.call("list_mcp_resources").text();
  CHECK(listed.find("- everything:demo://resource/static/document/") != std::string::npos);
  CHECK(h.call("list_mcp_resources", R"({"serverName":"everything"})").text() == listed);
  CHECK(h.call("list_mcp_resources", R"({"serverName":"nobody"})").result.error);

  // The first listed URI, read both ways.
  size_t at = listed.find("everything:demo://");
  REQUIRE(at != std::string::npos);
  std::string uri = listed.substr(at + 11, listed.find(' ', at) - at - 11);
  auto byServer = h.call("read_mcp_resource", R"({"uri":"everything:)" + uri + R"("})");
  CHECK_FALSE(byServer.result.error);
  CHECK(byServer.text().find("MCP server \"everything\"") != std::string::npos);
  CHECK(byServer.text().size() > 200);
  auto bare = h.call("read_mcp_resource", R"({"uri":")" + uri + R"("})");
  CHECK(bare.text() == byServer.text());
  auto missing = h.call("read_mcp_resource", R"({"uri":"demo://resource/nothing/here"})");
  REQUIRE(missing.result.error);
  CHECK(missing.result.error->message.find("no MCP server lists") != std::string::npos);
}

TEST_CASE("Servers without resources add no resource tools") {
  McpHarness h;
  h.startAndWait({h.scripted("test", "good")});
  CHECK_FALSE(h.registry.find("list_mcp_resources"));
  CHECK_FALSE(h.registry.find("read_mcp_resource"));
}
