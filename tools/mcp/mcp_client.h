// One live connection to an MCP server, over stdio (a child process) or HTTP
// (Streamable HTTP or the legacy HTTP+SSE, see http_channel.h): runs the
// `initialize` handshake, lists its tools (following nextCursor), calls tools
// with progress and cancellation, pings the server when asked, and answers
// what the server asks of a client: ping, roots/list, and, when the editor can
// ask the person (ClientHooks::asker), elicitation/create during a tool call,
// forwarded to the editor tied to that call (elicitation.h); anything else
// (sampling) gets a JSON-RPC "method not found". A connection that closed
// stays closed; McpServer makes a new one.
//
// Threads: connect() and the blocking calls run on the caller's thread; the
// connection's reading task (over HTTP: a blocking read of the stream, a
// task on the executor) or the executor's reactor (over stdio: the server's
// output is read there) runs the server's requests and
// notifications and the callbacks in ClientHooks (which must not block); a
// forwarded elicitation waits for the person on a task of its own.
// Destruction ends the child (closes its stdin, then kills its tree) and
// stops or joins the reader.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "protocol/exec/task_group.h"
#include "protocol/jsonrpc/peer.h"
#include "tools/core/asker.h"
#include "tools/mcp/prompts.h"
#include "tools/mcp/server_config.h"

namespace lathe::tools::process {
class ChildChannel;
}

namespace lathe::tools::mcp {
class HttpChannel;
}

namespace lathe::tools::mcp {

// The protocol versions Lathe speaks, newest first; the first is offered.
inline constexpr const char* kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

struct ListedTool {
  std::string name;
  std::string title;
  std::string description;
  std::string inputSchema;  // JSON text; an empty object schema when the server gave none
  bool readOnlyHint = false;
  bool openWorldHint = false;
  std::string annotations;  // the server's annotations object as JSON text; empty: none
};

class McpClient;

struct ListedResource {
  std::string uri;
  std::string name;
  std::string description;
  std::string mimeType;
};

struct ClientHooks {
  // notifications/tools/list_changed, with the connection that received it
  // (alive for the whole callback: it runs on that connection's reader).
  std::function<void(McpClient&)> onToolsChanged;
  std::function<std::vector<std::string>()> rootDirs;  // absolute directories for roots/list
  // notifications/prompts/list_changed, the same way.
  std::function<void(McpClient&)> onPromptsChanged;
  // The person, through the editor: set when the editor can show a form or
  // open a URL; the server is then told it may elicit (those modes).
  std::shared_ptr<Asker> asker;
};

class McpClient {
 public:
  // Spawns and initializes; fails with a message naming what went wrong (the
  // program could not start, it exited, it did not answer in time, it spoke
  // a protocol version Lathe does not know). `timeout` bounds the handshake.
  static Result<std::unique_ptr<McpClient>> connect(const ServerConfig& config, ClientHooks hooks,
                                                    std::chrono::milliseconds timeout, const CancelToken& cancel);
  ~McpClient();
  McpClient(const McpClient&) = delete;
  McpClient& operator=(const McpClient&) = delete;

  const std::string& protocolVersion() const { return protocolVersion_; }
  const std::string& serverName() const { return name_; }  // from serverInfo, may be empty

  // All pages of tools/list.
  Result<std::vector<ListedTool>> listTools(std::chrono::milliseconds timeout, const CancelToken& cancel);
  // The same without blocking: `done` runs once, on the reading thread (or at
  // once when the connection is closed).
  void listToolsAsync(std::function<void(Result<std::vector<ListedTool>>)> done);

  // tools/call with exactly these arguments (a JSON object's text). Progress
  // messages go to onProgress (reading thread). On cancel or timeout the server
  // is sent notifications/cancelled and the call ends with Errc::cancelled or
  // Errc::timeout. The response owns the result object.
  // The server's elicitations during the call are asked tied to `callId`
  // (the editor's id of the call; empty: none) and end with the call.
  Result<rpc::Response> callTool(const std::string& tool, const std::string& argumentsJson,
                                 std::chrono::milliseconds timeout, const CancelToken& cancel,
                                 std::function<void(const std::string&)> onProgress, const std::string& callId = "");

  // Whether the server said it has resources (its initialize capabilities).
  bool hasResources() const { return hasResources_; }
  // All pages of resources/list.
  Result<std::vector<ListedResource>> listResources(std::chrono::milliseconds timeout, const CancelToken& cancel);
  // resources/read; the response owns the result ({contents:[...]}).
  Result<rpc::Response> readResource(const std::string& uri, std::chrono::milliseconds timeout,
                                     const CancelToken& cancel);

  // MCP `ping`: ok when the server answers within `timeout` (any result).
  Status ping(std::chrono::milliseconds timeout, const CancelToken& cancel);
  // Whether the server said it has prompts (its initialize capabilities);
  // its prompts are listed (every page) and fetched the same way as its tools.
  bool hasPrompts() const { return hasPrompts_; }
  // All pages of prompts/list; the async form runs `done` once on the reading
  // thread (for re-listing from a notification). mcp_client_prompts.cpp.
  Result<std::vector<ListedPrompt>> listPrompts(std::chrono::milliseconds timeout, const CancelToken& cancel);
  void listPromptsAsync(std::function<void(Result<std::vector<ListedPrompt>>)> done);
  // prompts/get with these arguments (a JSON object of strings); the response owns the result.
  Result<rpc::Response> getPrompt(const std::string& name, const std::string& argumentsJson,
                                  std::chrono::milliseconds timeout, const CancelToken& cancel);

  // False once the server's output ended (it exited or closed stdout).
  bool alive() const;
  // Why the connection is gone: the exit status and the end of stderr.
  std::string whyClosed();

 private:
  McpClient(const ServerConfig& config, ClientHooks hooks);
  Status start();
  Status handshake(std::chrono::milliseconds timeout, const CancelToken& cancel);
  void installHandlers();
  // elicitation/create from the server (reading thread): forwarded on a task.
  void elicit(const rpc::Incoming& msg, rpc::Responder responder);
  struct CallScope {
    std::string callId;
    CancelToken cancel;  // cancelled when the call ends, or is cancelled
  };
  void readLoop();  // HTTP
  void outputEnded();
  Result<rpc::Response> await(const std::string& method, const rpc::ParamsWriter& params,
                              std::chrono::milliseconds timeout, const CancelToken& cancel);

  ServerConfig config_;
  ClientHooks hooks_;
  std::unique_ptr<process::ChildChannel> child_;  // stdio
  std::unique_ptr<rpc::ByteChannel> stdio_;        // child_'s pipes, closed only between writes
  std::unique_ptr<HttpChannel> http_;              // HTTP
  std::shared_ptr<rpc::Peer> peer_;
  exec::TaskGroup reading_;  // HTTP only: the blocking stream reader, a task on the executor
  std::atomic<bool> closed_{false};
  std::atomic<int> badLines_{0};
  std::string protocolVersion_;
  bool hasResources_ = false;
  bool hasPrompts_ = false;
  std::string name_;
  std::mutex progressMutex_;
  std::map<std::string, std::function<void(const std::string&)>> progress_;  // by progress token
  std::map<std::string, CallScope> calls_;  // tool calls under way, by progress token (progressMutex_)
  std::atomic<uint64_t> nextProgress_{0};
  exec::TaskGroup asking_;  // forwarded elicitations waiting for the person
};

}  // namespace lathe::tools::mcp
