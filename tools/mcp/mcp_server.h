// One configured MCP server of a session: connects it, registers its tools
// in the session's registry (re-listing when the server says they changed),
// and runs calls, restarting a server that crashed on the next call. A server
// that fails never throws: its failure is an error value and one notice.
//
// Hung servers: when a call times out, Lathe sends the server one `ping`,
// bounded by min(its timeout, 5 s). A server that answers is only slow and
// keeps its connection; one that does not is hung, so its connection is
// dropped (the child ends) and the next call starts it afresh, instead of
// every later call waiting out the full timeout. Lathe pings only then: a
// healthy server costs nothing, and the call that found the hang already
// paid for the wait.
//
// Threads: start() runs on a starter thread; call() on tool worker threads
// (connections are made under one mutex, so a restart happens once); re-lists
// run on the connection's reading thread. shutdown() on the session's owner.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "protocol/acp/updates.h"
#include "tools/core/registry.h"
#include "tools/core/tool.h"
#include "tools/mcp/mcp_client.h"
#include "tools/mcp/server_config.h"

namespace lathe::tools::mcp {

struct ServerEnvironment {
  ToolRegistry* registry = nullptr;
  std::mutex* registryMutex = nullptr;  // shared by a session's servers: naming is then race-free
  std::function<std::vector<std::string>()> rootDirs;
  // The server's prompts changed (listed at connect, re-listed on
  // notifications/prompts/list_changed); any thread, must not block long.
  std::function<void()> promptsChanged;
  std::shared_ptr<Asker> asker;  // null: the editor cannot ask the person (servers may not elicit)
  // Tells the person a live event (a server restarted); any thread; may be null.
  std::function<void(const acp::Notice&)> notify;
};

class McpServer : public std::enable_shared_from_this<McpServer> {
 public:
  McpServer(ServerConfig config, ServerEnvironment environment);
  ~McpServer();

  const ServerConfig& config() const { return config_; }

  // Connects and registers the tools; the error says why not.
  Status start(const CancelToken& cancel);

  // Calls one of the server's tools (its own name) with the model's
  // arguments; what the server asks the person meanwhile is tied to `callId`.
  ToolResult call(const std::string& tool, const std::string& argumentsJson, const CancelToken& cancel,
                  const OutputSink& progress, const std::string& callId = "");

  // Whether the connected server has resources.
  bool hasResources();
  // Its resources, listed now.
  Result<std::vector<ListedResource>> listResources(const CancelToken& cancel);
  // One resource, read now, as what the model and the person see.
  ToolResult readResource(const std::string& uri, const CancelToken& cancel);

  // Its prompts as last listed (empty when it has none). mcp_server_prompts.cpp.
  std::vector<ListedPrompt> prompts() const;
  // Runs prompts/get with these arguments (a JSON object of strings).
  Result<std::vector<PromptContent>> getPrompt(const std::string& name, const std::string& argumentsJson,
                                               const CancelToken& cancel);
  // Connected now, with a live connection.
  bool connectedNow();

  // Ends the connection for good (no restart after this).
  void shutdown();

 private:
  std::chrono::milliseconds connectTimeout() const;
  // The live connection, connecting (again) when there is none.
  Result<std::shared_ptr<McpClient>> connection(const CancelToken& cancel);
  std::shared_ptr<McpClient> current();
  void registerTools(const std::vector<ListedTool>& tools);
  void refresh(McpClient& client);  // on that client's reading thread
  // After a timed-out call: pings `client`; if it is silent, forgets it so the
  // next call reconnects. Returns what to add to the call's error message.
  std::string checkAfterTimeout(const std::shared_ptr<McpClient>& client, const CancelToken& cancel);
  void listPromptsAtConnect(McpClient& client, const CancelToken& cancel);
  void refreshPrompts(McpClient& client);  // on that client's reading thread
  void setPrompts(std::vector<ListedPrompt> prompts);

  ServerConfig config_;
  ServerEnvironment env_;
  std::mutex connectMutex_;  // held while connecting, so a restart happens once
  std::mutex clientMutex_;   // guards client_, droppedHung_ and closed_; never held while waiting
  std::shared_ptr<McpClient> client_;
  bool droppedHung_ = false;  // client_ was dropped as hung: the next connection is a restart
  bool closed_ = false;
  CancelToken closing_ = CancelToken::create();
  std::mutex refreshMutex_;
  bool refreshing_ = false;
  bool refreshAgain_ = false;
  mutable std::mutex promptsMutex_;
  std::vector<ListedPrompt> prompts_;
};

}  // namespace lathe::tools::mcp
