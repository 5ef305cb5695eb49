// The MCP servers of one session: starts each in parallel (session/new never
// waits for them), lets the first prompt wait a bounded time for servers still
// starting, collects one notice per server that failed (for the person), and
// ends every server with the session.
//
// Threads: start(), waitForStarts(), takeNotices() and the destructor from the
// session's threads (thread-safe); each server starts as a task on the
// executor, and they end the same way, all at once.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "protocol/exec/task_group.h"
#include "protocol/acp/updates.h"
#include "tools/core/asker.h"
#include "tools/core/registry.h"
#include "tools/mcp/prompts.h"
#include "tools/mcp/server_config.h"

namespace lathe::tools::mcp {

class McpServer;
class ServerDirectory;

// One server as the person should see it (/mcp): how it stands and what it offers.
struct ServerStatus {
  std::string name;
  enum class State { starting, connected, stopped, failed } state = State::starting;
  std::string detail;  // why it failed; empty otherwise
  std::vector<ListedPrompt> prompts;
};
const char* toString(ServerStatus::State state);

class SessionServers {
 public:
  // `rootDirs` are the session's workspace roots (answered to roots/list).
  SessionServers(ToolRegistry& registry, std::vector<std::string> rootDirs);
  ~SessionServers();  // ends every server and joins the starters
  SessionServers(const SessionServers&) = delete;
  SessionServers& operator=(const SessionServers&) = delete;

  // Starts these servers (returns at once). A name already in use is refused
  // with a notice.
  void start(std::vector<ServerConfig> configs);
  // Waits until no server is still starting, or `bound` passed.
  void waitForStarts(std::chrono::milliseconds bound);
  // What the person should be told (each failure once), then forgotten.
  std::vector<std::string> takeNotices();
  // The names of the servers that are connected (for tests and diagnostics).
  std::vector<std::string> connected();

  // Called (on any thread, no lock held) whenever some server's prompts
  // changed; set before start().
  void setPromptsListener(std::function<void()> listener);
  // The person, for servers that elicit during their calls (null: servers
  // are not told they may); set before start().
  void setAsker(std::shared_ptr<Asker> asker) { asker_ = std::move(asker); }
  // Tells the person live events of the servers (a restart); set before start().
  void setNotifier(std::function<void(const acp::Notice&)> notify) { notify_ = std::move(notify); }
  // Every server started so far, in start order.
  std::vector<ServerStatus> status();
  // Runs one server's prompt (prompts/get).
  Result<std::vector<PromptContent>> getPrompt(const std::string& server, const std::string& prompt,
                                               const std::string& argumentsJson, const CancelToken& cancel);

  void shutdown();

 private:
  void run(std::shared_ptr<McpServer> server);
  void notice(std::string text);
  void addResourceTools();

  ToolRegistry& registry_;
  std::vector<std::string> rootDirs_;
  std::mutex registryMutex_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::shared_ptr<McpServer>> servers_;
  std::vector<std::string> connected_;
  std::vector<std::string> notices_;
  std::map<std::string, std::string> failures_;  // server name → why it failed to start
  std::function<void()> promptsListener_;
  std::shared_ptr<Asker> asker_;
  std::function<void(const acp::Notice&)> notify_;
  std::shared_ptr<ServerDirectory> directory_;  // what the resource tools see
  bool resourceToolsAdded_ = false;              // guarded by registryMutex_
  int starting_ = 0;
  bool closed_ = false;
  exec::TaskGroup starters_;  // last: joined before the members above go
};

}  // namespace lathe::tools::mcp
