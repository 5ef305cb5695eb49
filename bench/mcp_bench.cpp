// mcp_bench: prints how long MCP servers take to become tools, and what one
// MCP tool call costs over calling the server directly.
//   1. start → tools registered, for 1 and 5 stdio servers started in
//      parallel (what session/new sets off; the first prompt waits for it),
//      with the scripted test server and with server-everything;
//   2. one tools/call of server-everything's `echo`: through Lathe's MCP tool
//      (validation, the call, result mapping) against a bare JSON-RPC
//      request on the same kind of connection.
// Single-threaded driver; each connection runs its own reading thread.
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "protocol/base/json.h"
#include "protocol/jsonrpc/peer.h"
#include "tools/core/registry.h"
#include "tools/mcp/session_servers.h"
#include "tools/process/child_channel.h"

using namespace lathe;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

const std::string kSource = LATHE_SOURCE_DIR;
const std::string kTestServer = kSource + "/tests/support/mcp_test_server.mjs";
const std::string kEverything = kSource + "/.deps/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js";

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

struct Stats {
  double median, min, max;
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

tools::mcp::ServerConfig server(const std::string& name, std::vector<std::string> args) {
  tools::mcp::ServerConfig config;
  config.name = name;
  config.transport = tools::mcp::StdioTransport{"node", std::move(args), {}, std::nullopt};
  return config;
}

// Time from start() until every server's tools are registered.
double startToTools(int servers, bool everything) {
  tools::ToolRegistry registry;
  tools::mcp::SessionServers session(registry, {"/tmp"});
  std::vector<tools::mcp::ServerConfig> configs;
  for (int i = 0; i < servers; ++i) {
    std::string name = "s" + std::to_string(i);
    configs.push_back(everything ? server(name, {kEverything, "stdio"}) : server(name, {kTestServer, "good"}));
  }
  auto start = Clock::now();
  session.start(std::move(configs));
  session.waitForStarts(60s);
  double elapsed = ms(Clock::now() - start);
  if (static_cast<int>(session.connected().size()) != servers) {
    std::fprintf(stderr, "only %zu of %d servers connected\n", session.connected().size(), servers);
    return -1;
  }
  return elapsed;
}

void printRow(const char* what, const Stats& s) {
  std::printf("%-58s median %8.1f ms  (min %.1f, max %.1f)\n", what, s.median, s.min, s.max);
}

void benchStart(int iterations) {
  for (bool everything : {false, true}) {
    for (int servers : {1, 5}) {
      std::vector<double> samples;
      for (int i = 0; i < iterations; ++i) samples.push_back(startToTools(servers, everything));
      std::string label = std::string("start -> tools registered, ") + std::to_string(servers) + " x " +
                          (everything ? "server-everything" : "test server");
      printRow(label.c_str(), stats(samples));
    }
  }
}

// tools/call echo over a bare peer on the child's stdio.
std::vector<double> directCalls(int calls) {
  tools::process::ProcessSpec spec;
  spec.argv = {"node", kEverything, "stdio"};
  auto child = tools::process::ChildChannel::spawn(spec);
  if (!child) return {};
  auto peer = rpc::Peer::create((*child)->channel(), rpc::Peer::Options{Framing::newline});
  std::thread reader([&] { peer->serve(); });
  CancelToken never = CancelToken::create();
  (void)peer->call("initialize",
                   json::Raw{R"({"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}})"},
                   10s, never);
  peer->notify("notifications/initialized", json::Raw{"{}"});
  std::vector<double> samples;
  for (int i = 0; i < calls; ++i) {
    auto start = Clock::now();
    auto answer = peer->call("tools/call", json::Raw{R"({"name":"echo","arguments":{"message":"hello"}})"}, 10s, never);
    if (answer) samples.push_back(ms(Clock::now() - start));
  }
  (*child)->shutdown(1s);
  reader.join();
  peer->close();
  return samples;
}

std::vector<double> toolCalls(int calls) {
  tools::ToolRegistry registry;
  tools::mcp::SessionServers session(registry, {"/tmp"});
  session.start({server("everything", {kEverything, "stdio"})});
  session.waitForStarts(60s);
  auto tool = registry.find("everything__echo");
  if (!tool) return {};
  auto params = json::parse(R"({"message":"hello"})");
  std::vector<double> samples;
  for (int i = 0; i < calls; ++i) {
    auto start = Clock::now();
    auto built = tool->build(*params);
    if (built.error) return {};
    auto result = built.invocation->execute(CancelToken::create(), [](const std::string&) {});
    if (!result.error) samples.push_back(ms(Clock::now() - start));
  }
  return samples;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  int iterations = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  int calls = 200;
  std::printf("mcp_bench: %d runs per start figure, %d calls per call figure\n", iterations, calls);
  benchStart(iterations);
  auto direct = directCalls(calls);
  auto through = toolCalls(calls);
  if (direct.size() < 10 || through.size() < 10) {
    std::fprintf(stderr, "calls failed (direct %zu, through Lathe %zu)\n", direct.size(), through.size());
    return 1;
  }
  auto d = stats(direct), t = stats(through);
  printRow("server-everything echo: bare JSON-RPC tools/call", d);
  printRow("server-everything echo: through Lathe's MCP tool", t);
  std::printf("overhead of the MCP tool over the bare call: %.3f ms (median)\n", t.median - d.median);
  std::printf("Gemini CLI: not measured here (not installed on this machine; see bench/README.md)\n");
  return 0;
}
