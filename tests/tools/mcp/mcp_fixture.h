// Shared helpers for the MCP client tests: a registry with a session's MCP
// servers, running one tool call as the scheduler would, reading what the
// scripted test server recorded. Test-only.
#pragma once

#include <catch2/catch.hpp>

#include <signal.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "protocol/base/json.h"
#include "tests/support/temp_dir.h"
#include "tests/support/wait.h"
#include "tools/core/registry.h"
#include "tools/mcp/session_servers.h"

#ifndef LATHE_SOURCE_DIR
#error "LATHE_SOURCE_DIR must name the source tree"
#endif

namespace lathe::testing::mcp {

using namespace std::chrono_literals;
namespace mcp = lathe::tools::mcp;

inline const std::string kTestServer = std::string(LATHE_SOURCE_DIR) + "/tests/support/mcp_test_server.mjs";
inline const std::string kNodeModules = std::string(LATHE_SOURCE_DIR) + "/.deps/node/node_modules";
inline const std::string kEverything = kNodeModules + "/@modelcontextprotocol/server-everything/dist/index.js";
inline const std::string kFilesystem = kNodeModules + "/@modelcontextprotocol/server-filesystem/dist/index.js";

// A pipe to a child that died must be an error value, not a signal.
struct IgnoreSigpipe {
  IgnoreSigpipe() { ::signal(SIGPIPE, SIG_IGN); }
};
inline IgnoreSigpipe ignoreSigpipe;

inline mcp::ServerConfig stdioServer(std::string name, std::vector<std::string> argv,
                                     std::vector<mcp::NameValue> env = {}, int64_t timeoutMs = 600'000) {
  mcp::ServerConfig config;
  config.name = std::move(name);
  mcp::StdioTransport stdio;
  stdio.command = argv.front();
  stdio.args.assign(argv.begin() + 1, argv.end());
  stdio.env = std::move(env);
  config.transport = std::move(stdio);
  config.timeoutMs = timeoutMs;
  return config;
}

struct CallOutcome {
  tools::ToolResult result;
  std::vector<std::string> progress;
  std::string text() const {
    std::string all;
    for (const auto& part : result.llmContent) all += part.text;
    if (result.error) all += result.error->message;
    return all;
  }
};

// A session's worth of MCP servers over one registry and a workspace root.
struct McpHarness {
  TempDir root;
  TempDir logs;
  tools::ToolRegistry registry;
  mcp::SessionServers servers{registry, {root.str()}};

  std::string logFile(const std::string& name) const { return logs.str() + "/" + name + ".log"; }

  mcp::ServerConfig scripted(const std::string& name, const std::string& mode, int64_t timeoutMs = 600'000,
                             std::vector<mcp::NameValue> env = {}) {
    env.emplace_back("MCP_TEST_LOG", logFile(name));
    return stdioServer(name, {"node", kTestServer, mode}, std::move(env), timeoutMs);
  }

  void startAndWait(std::vector<mcp::ServerConfig> configs) {
    servers.start(std::move(configs));
    servers.waitForStarts(30s);
  }

  // onProgress sees each progress line as it comes.
  CallOutcome call(const std::string& name, const std::string& argsJson = "{}",
                   const CancelToken& cancel = CancelToken::create(),
                   const std::function<void(const std::string&)>& onProgress = {}) {
    auto tool = registry.find(name);
    REQUIRE(tool);
    auto params = json::parse(argsJson);
    REQUIRE(params);
    auto built = tool->build(*params);
    if (built.error) FAIL("build failed: " << built.error->message);
    CallOutcome outcome;
    std::mutex mutex;
    outcome.result = built.invocation->execute(cancel, [&](const std::string& line) {
      {
        std::lock_guard lock(mutex);
        outcome.progress.push_back(line);
      }
      if (onProgress) onProgress(line);
    });
    return outcome;
  }
};

// What the scripted server recorded, one parsed JSON per line.
inline std::vector<std::string> recorded(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

inline bool recordedContains(const std::string& file, const std::string& needle) {
  for (const auto& line : recorded(file)) {
    if (line.find(needle) != std::string::npos) return true;
  }
  return false;
}

// What these tests wait for cannot notify them: logs the server processes
// write, their exit, the registry filling up after a server's list_changed.
// So they poll.
using lathe::testing::pollUntil;

// The pids the scripted server recorded at start-up.
inline std::vector<int> recordedPids(const std::string& file) {
  std::vector<int> pids;
  for (const auto& line : recorded(file)) {
    auto doc = json::parse(line);
    if (!doc || !doc->IsObject()) continue;
    if (auto pid = json::getInt(*doc, "pid")) pids.push_back(static_cast<int>(*pid));
  }
  return pids;
}

inline bool processGone(int pid) { return ::kill(pid, 0) != 0; }

}  // namespace lathe::testing::mcp
