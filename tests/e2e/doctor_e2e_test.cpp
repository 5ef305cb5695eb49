// `lathe doctor` end to end: a working setup (the fake Gemini server, an MCP
// server from the user's settings) passes; a broken settings file, a missing
// key, a failing MCP server and an endpoint that never answers each fail with
// a fix, and the silent endpoint ends within its bound instead of hanging.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

const std::string kMcpServer = std::string(LATHE_SOURCE_DIR) + "/tests/support/mcp_test_server.mjs";

struct DoctorHome {
  TempDir home;
  TempDir state;
  TempDir ws;
  std::vector<std::pair<std::string, std::string>> env(const std::string& baseUrl, const std::string& key) const {
    return {{"HOME", home.str()}, {"GEMINI_CLI_HOME", home.str()}, {"XDG_STATE_HOME", state.str()},
            {"GOOGLE_GEMINI_BASE_URL", baseUrl}, {"GEMINI_API_KEY", key}};
  }
  void userSettings(const std::string& text) const { writeFile(home.path / ".gemini/settings.json", text); }
};

std::string mcpSettings(const std::string& mode) {
  return R"({"mcpServers": {"scripted": {"command": "node", "args": [")" + kMcpServer + R"(", ")" + mode + R"("]}}})";
}

// A TCP port on 127.0.0.1 that accepts connections (the kernel completes them
// from the backlog) and never answers.
struct SilentPort {
  int fd = -1;
  int port = 0;
  SilentPort() {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(::listen(fd, 8) == 0);
    socklen_t len = sizeof addr;
    REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
    port = ntohs(addr.sin_port);
  }
  ~SilentPort() { ::close(fd); }
};

std::string lineOf(const std::string& out, const std::string& start) {
  size_t at = out.find(start);
  if (at == std::string::npos) return {};
  return out.substr(at, out.find('\n', at) - at);
}

}  // namespace

TEST_CASE("e2e: lathe doctor passes a working setup, one line per check", "[e2e][doctor]") {
  auto fake = startFake();
  DoctorHome h;
  h.userSettings(mcpSettings("good"));
  RunResult run = runLathe({"doctor"}, h.ws.str(), h.env(fake->baseUrl(), "test-key-abcd1234"));
  INFO(run.out << run.err);
  CHECK(lineOf(run.out, "ok   settings: ").find(".gemini/settings.json parses") != std::string::npos);
  CHECK(lineOf(run.out, "ok   credentials: ").find("GEMINI_API_KEY ...1234") != std::string::npos);
  CHECK(run.out.find("test-key-abcd1234") == std::string::npos);  // never the key itself
  CHECK(lineOf(run.out, "ok   endpoint: ").find(fake->baseUrl() + " answers") != std::string::npos);
  CHECK_FALSE(lineOf(run.out, "ok   MCP server scripted: started, ").empty());
  CHECK_FALSE(lineOf(run.out, "ok   state directory: ").empty());
  CHECK(run.out.find("bubblewrap: ") != std::string::npos);
  CHECK(run.out.find("ripgrep: ") != std::string::npos);
  // bubblewrap may be unusable on a test machine; everything else passed.
  bool bwrapFailed = !lineOf(run.out, "FAIL bubblewrap").empty();
  CHECK(run.status.exitCode == (bwrapFailed ? 1 : 0));
}

TEST_CASE("e2e: lathe doctor names what is broken and how to fix it", "[e2e][doctor]") {
  DoctorHome h;
  SECTION("a settings file that does not parse") {
    h.userSettings("{\"model\": ");
    RunResult run = runLathe({"doctor"}, h.ws.str(), h.env("http://127.0.0.1:9", "k"));
    std::string line = lineOf(run.out, "FAIL settings: ");
    CHECK(line.find(".gemini/settings.json") != std::string::npos);
    CHECK(line.find("; fix: ") != std::string::npos);
    CHECK(run.status.exitCode == 1);
  }
  SECTION("no API key") {
    RunResult run = runLathe({"doctor"}, h.ws.str(), h.env("http://127.0.0.1:9", ""));
    CHECK(lineOf(run.out, "FAIL credentials: GEMINI_API_KEY is not set").find("; fix: ") != std::string::npos);
    CHECK(run.status.exitCode == 1);
  }
  SECTION("an MCP server that exits at start") {
    h.userSettings(mcpSettings("exit"));
    RunResult run = runLathe({"doctor"}, h.ws.str(), h.env("http://127.0.0.1:9", "k"));
    CHECK(lineOf(run.out, "FAIL MCP server scripted: ").find("fix: check mcpServers.scripted") != std::string::npos);
    CHECK(run.status.exitCode == 1);
  }
}

TEST_CASE("e2e: lathe doctor reports an endpoint that never answers as a timeout", "[e2e][doctor]") {
  SilentPort silent;
  DoctorHome h;
  std::string url = "http://127.0.0.1:" + std::to_string(silent.port);
  RunResult run = runLathe({"doctor", "--read-timeout", "1"}, h.ws.str(), h.env(url, "test-key-abcd1234"));
  INFO(run.out << run.err);
  std::string line = lineOf(run.out, "FAIL endpoint: " + url);
  CHECK(line.find("no answer within 1 s") != std::string::npos);
  CHECK(line.find("; fix: check the network") != std::string::npos);
  CHECK_FALSE(lineOf(run.out, "ok   state directory: ").empty());  // the checks after it still ran
  CHECK(run.status.exitCode == 1);
}
