// The MCP client over HTTP against server-everything's own HTTP modes, run on
// 127.0.0.1 by the test: Streamable HTTP (JSON and SSE answers, the session
// id, the GET stream), the legacy HTTP+SSE transport, and a bare URL that
// tries Streamable HTTP and falls back to SSE.
#include "tests/tools/mcp/mcp_fixture.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/support/subprocess.h"
#include "tools/mcp/server_config.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::mcp;

namespace {

const std::string kHttpWrapper = std::string(LATHE_SOURCE_DIR) + "/tests/support/mcp_http_everything.mjs";

int freePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// server-everything in an HTTP mode on 127.0.0.1, stopped with the test.
struct HttpEverything {
  int port;
  std::unique_ptr<Subprocess> process;

  explicit HttpEverything(const std::string& mode, int fixedPort = 0) : port(fixedPort ? fixedPort : freePort()) {
    SubprocessOptions options;
    options.argv = {"node", kHttpWrapper, kEverything, mode};
    options.env = {{"PORT", std::to_string(port)}};
    auto spawned = Subprocess::spawn(options);
    REQUIRE(spawned);
    process = std::move(spawned).value();
    INFO("server stderr: " << process->stderrText());
    REQUIRE(saw("listening", 20s));
  }
  // True once the wrapper reported `event` on stdout (lines before it are skipped).
  bool saw(const std::string& event, std::chrono::milliseconds bound = 10s) {
    while (auto line = process->readLine(bound)) {
      if (*line == "mcp_http_everything: " + event) return true;
    }
    return false;
  }
  ~HttpEverything() {
    process->kill(SIGTERM);
    if (!process->wait(5s)) process->kill(SIGKILL);
  }
  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port) + path; }
};

tools::mcp::ServerConfig httpServer(const std::string& name, tools::mcp::HttpTransport::Kind kind, std::string url) {
  tools::mcp::ServerConfig config;
  config.name = name;
  config.transport = tools::mcp::HttpTransport{kind, std::move(url), {{"X-Test", "from-lathe"}}};
  config.timeoutMs = 60'000;
  return config;
}

void exercise(McpHarness& h, const std::string& name) {
  REQUIRE(h.servers.takeNotices().empty());
  REQUIRE(h.servers.connected() == std::vector<std::string>{name});
  CHECK(h.call(name + "__echo", R"({"message":"over http"})").text().find("over http") != std::string::npos);
  auto image = h.call(name + "__get-tiny-image");
  bool inlineImage = false;
  for (const auto& part : image.result.llmContent) inlineImage = inlineImage || part.mimeType == "image/png";
  CHECK(inlineImage);
  auto progressed = h.call(name + "__trigger-long-running-operation", R"({"duration":1,"steps":2})");
  CHECK_FALSE(progressed.result.error);
  CHECK(progressed.progress.size() == 2);
  // Roots are asked for by the server (on the GET stream or the SSE stream), then its roots tool appears.
  REQUIRE(pollUntil([&] { return h.registry.find(name + "__get-roots-list") != nullptr; }));
  CHECK(h.call(name + "__get-roots-list").text().find("file://" + h.root.str()) != std::string::npos);
}

}  // namespace

TEST_CASE("Streamable HTTP: server-everything's tools listed and called with progress and roots") {
  HttpEverything server("streamableHttp");
  McpHarness h;
  h.startAndWait({httpServer("web", tools::mcp::HttpTransport::Kind::streamable, server.url("/mcp"))});
  exercise(h, "web");
}

TEST_CASE("Legacy HTTP+SSE: server-everything's tools listed and called") {
  HttpEverything server("sse");
  McpHarness h;
  h.startAndWait({httpServer("old", tools::mcp::HttpTransport::Kind::sse, server.url("/sse"))});
  exercise(h, "old");
}

TEST_CASE("A bare URL tries Streamable HTTP, then falls back to HTTP+SSE") {
  HttpEverything server("sse");
  McpHarness h;
  h.startAndWait({httpServer("auto", tools::mcp::HttpTransport::Kind::automatic, server.url("/sse"))});
  exercise(h, "auto");
}

TEST_CASE("A bare URL that speaks Streamable HTTP stays on it") {
  HttpEverything server("streamableHttp");
  McpHarness h;
  h.startAndWait({httpServer("auto", tools::mcp::HttpTransport::Kind::automatic, server.url("/mcp"))});
  exercise(h, "auto");
}

TEST_CASE("An HTTP server that is not there fails clearly at start") {
  McpHarness h;
  auto config = httpServer("gone", tools::mcp::HttpTransport::Kind::automatic, "http://127.0.0.1:" +
                                                                                std::to_string(freePort()) + "/mcp");
  config.timeoutMs = 5000;
  h.startAndWait({config});
  auto notices = h.servers.takeNotices();
  REQUIRE(notices.size() == 1);
  CHECK(notices[0].find("\"gone\" failed to start") != std::string::npos);
  CHECK(notices[0].find("127.0.0.1") != std::string::npos);
}

TEST_CASE("A Streamable HTTP server that went away fails the call clearly, the next call connects afresh") {
  auto server = std::make_unique<HttpEverything>("streamableHttp");
  int port = server->port;
  McpHarness h;
  h.startAndWait({httpServer("web", tools::mcp::HttpTransport::Kind::streamable, server->url("/mcp"))});
  REQUIRE(h.servers.connected() == std::vector<std::string>{"web"});
  CHECK_FALSE(h.call("web__echo", R"({"message":"one"})").result.error);
  server.reset();  // stopped: connections are refused
  auto failed = h.call("web__echo", R"({"message":"two"})");
  REQUIRE(failed.result.error);
  CHECK(failed.result.error->message.find("MCP server web") != std::string::npos);
  server = std::make_unique<HttpEverything>("streamableHttp", port);  // a new server knows no old session
  auto again = h.call("web__echo", R"({"message":"three"})");
  CHECK_FALSE(again.result.error);
  CHECK(again.text().find("three") != std::string::npos);

  // Restarted between calls: the old session is unknown (400 here), so that call
  // fails and the one after starts a new session. First the new session's
  // start-up chatter must be over (the server asks for roots 350 ms after
  // initialized; an answer that cannot be delivered also ends the connection).
  REQUIRE(server->saw("roots synced"));
  server.reset();
  server = std::make_unique<HttpEverything>("streamableHttp", port);
  auto expired = h.call("web__echo", R"({"message":"four"})");
  REQUIRE(expired.result.error);
  CHECK(expired.result.error->message.find("the session is over") != std::string::npos);
  CHECK_FALSE(h.call("web__echo", R"({"message":"five"})").result.error);
}
