// One MCP server of a session.
#include "tools/mcp/mcp_server.h"

#include <algorithm>

#include "protocol/base/log.h"
#include "tools/mcp/call_result.h"
#include "tools/mcp/mcp_tool.h"
#include "tools/mcp/tool_naming.h"

namespace lathe::tools::mcp {
namespace {

using std::chrono::milliseconds;

bool listed(const std::vector<std::string>& names, const std::string& tool) {
  // Gemini CLI's rule: an entry names the tool, or starts with "tool(".
  return std::any_of(names.begin(), names.end(), [&](const std::string& entry) {
    return entry == tool || entry.rfind(tool + "(", 0) == 0;
  });
}

}  // namespace

McpServer::McpServer(ServerConfig config, ServerEnvironment environment)
    : config_(std::move(config)), env_(std::move(environment)) {}

McpServer::~McpServer() { shutdown(); }

milliseconds McpServer::connectTimeout() const {
  return milliseconds(std::clamp<int64_t>(config_.timeoutMs, 1, 60'000));
}

std::shared_ptr<McpClient> McpServer::current() {
  std::lock_guard lock(clientMutex_);
  return client_;
}

Result<std::shared_ptr<McpClient>> McpServer::connection(const CancelToken& cancel) {
  std::lock_guard connecting(connectMutex_);
  {
    std::lock_guard lock(clientMutex_);
    if (closed_) return makeError(Errc::cancelled, "the session is closing");
    if (client_ && client_->alive()) return client_;
  }
  CancelToken both = closing_.child();
  CancelToken::Registration link = cancel.onCancel([both] { both.cancel(); });
  ClientHooks hooks;
  std::weak_ptr<McpServer> weak = weak_from_this();
  hooks.onToolsChanged = [weak](McpClient& client) {
    if (auto self = weak.lock()) self->refresh(client);
  };
  hooks.rootDirs = env_.rootDirs;
  hooks.asker = env_.asker;
  hooks.onPromptsChanged = [weak](McpClient& client) {
    if (auto self = weak.lock()) self->refreshPrompts(client);
  };
  auto client = McpClient::connect(config_, std::move(hooks), connectTimeout(), both);
  if (!client) return client.error();
  std::shared_ptr<McpClient> live = std::move(client).value();
  auto tools = live->listTools(connectTimeout(), both);
  if (!tools) return makeError(tools.error().code, "tools/list failed: " + tools.error().message);
  {
    std::lock_guard lock(clientMutex_);
    if (closed_) return makeError(Errc::cancelled, "the session is closing");
    client_ = live;
    droppedHung_ = false;
  }
  registerTools(*tools);
  listPromptsAtConnect(*live, both);
  return live;
}

Status McpServer::start(const CancelToken& cancel) {
  auto live = connection(cancel);
  if (!live) return live.error();
  log(LogLevel::info, "MCP server " + config_.name + " connected (protocol " + (*live)->protocolVersion() + ")");
  return {};
}

void McpServer::registerTools(const std::vector<ListedTool>& tools) {
  std::lock_guard lock(*env_.registryMutex);
  ToolRegistry& registry = *env_.registry;
  auto taken = [&](const std::string& name) {
    if (!registry.find(name)) return false;
    auto source = registry.sourceOf(name);
    // This server's own previous tools are being replaced, so their names are free.
    return !source || source->group != ToolSource::Group::mcp || source->server != config_.name;
  };
  std::vector<std::pair<std::unique_ptr<Tool>, ToolSource>> made;
  std::vector<std::string> names;
  for (const ListedTool& tool : tools) {
    if (!config_.includeTools.empty() && !listed(config_.includeTools, tool.name)) continue;
    if (listed(config_.excludeTools, tool.name)) continue;
    std::string name = uniqueMcpToolName(config_.name, tool.name, [&](const std::string& candidate) {
      return taken(candidate) || std::find(names.begin(), names.end(), candidate) != names.end();
    });
    names.push_back(name);
    made.emplace_back(makeMcpTool(name, tool, weak_from_this(), config_.name, config_.trust),
                      ToolSource{ToolSource::Group::mcp, config_.name, tool.name, tool.annotations});
  }
  for (const auto& refused : registry.replaceServerTools(config_.name, std::move(made))) {
    log(LogLevel::warn, "MCP server " + config_.name + ": the tool name " + refused + " is taken; tool left out");
  }
}

void McpServer::refresh(McpClient& client) {
  {
    std::lock_guard lock(refreshMutex_);
    if (refreshing_) {
      refreshAgain_ = true;  // coalesced: one more listing after this one
      return;
    }
    refreshing_ = true;
  }
  std::weak_ptr<McpServer> weak = weak_from_this();
  McpClient* source = &client;
  client.listToolsAsync([weak, source](Result<std::vector<ListedTool>> tools) {
    auto self = weak.lock();
    if (!self) return;
    if (tools) {
      self->registerTools(*tools);
    } else {
      log(LogLevel::warn, "MCP server " + self->config_.name + ": re-listing tools failed: " + tools.error().message);
    }
    bool again;
    {
      std::lock_guard lock(self->refreshMutex_);
      again = self->refreshAgain_;
      self->refreshing_ = self->refreshAgain_ = false;
    }
    if (again && source->alive()) self->refresh(*source);
  });
}

ToolResult McpServer::call(const std::string& tool, const std::string& argumentsJson, const CancelToken& cancel,
                           const OutputSink& progress, const std::string& callId) {
  const std::string who = "MCP server " + config_.name;
  bool restarting;
  {
    auto existing = current();
    bool stopped = existing && !existing->alive();
    std::lock_guard lock(clientMutex_);
    restarting = stopped || droppedHung_;
  }
  auto live = connection(cancel);
  if (!live) {
    if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "cancelled while connecting to " + who);
    return ToolResult::failure(ErrorType::execution_failed,
                               who + (restarting ? " had stopped and could not be restarted: " : " is not connected: ") +
                                   live.error().message);
  }
  if (restarting) {
    log(LogLevel::info, who + " restarted for a call of " + tool);
    if (env_.notify) {
      env_.notify(acp::Notice{acp::NoticeSeverity::info, "MCP server " + config_.name + " restarted",
                              who + " had stopped; Lathe started it again for a call of " + tool + "."});
    }
  }
  std::shared_ptr<McpClient> client = std::move(live).value();
  auto answer = client->callTool(tool, argumentsJson, milliseconds(std::max<int64_t>(config_.timeoutMs, 1)), cancel,
                                 progress ? std::function<void(const std::string&)>(progress) : nullptr, callId);
  if (answer && answer->result && answer->result->IsObject()) return mapCallResult(*answer->result, config_.name, tool);
  if (answer) return ToolResult::failure(ErrorType::execution_failed, who + " answered tools/call without a result object");
  const Error& error = answer.error();
  switch (error.code) {
    case Errc::cancelled:
      return ToolResult::failure(ErrorType::cancelled, "the call of " + tool + " on " + who + " was cancelled");
    case Errc::timeout:
      return ToolResult::failure(ErrorType::execution_failed,
                                 who + " did not answer the call of " + tool + " within " +
                                     std::to_string(config_.timeoutMs) + " ms (its timeout); the call was cancelled" +
                                     checkAfterTimeout(client, cancel));
    default:
      break;
  }
  if (!client->alive()) {
    std::string why = client->whyClosed();
    log(LogLevel::warn, who + " stopped during a call of " + tool + ": " + why);
    return ToolResult::failure(ErrorType::execution_failed,
                               who + " stopped during the call of " + tool + " (" + why +
                                   "). The next call of one of its tools starts it again.");
  }
  return ToolResult::failure(ErrorType::execution_failed, who + " answered the call of " + tool + " with an error: " +
                                                              error.message);
}

std::string McpServer::checkAfterTimeout(const std::shared_ptr<McpClient>& client, const CancelToken& cancel) {
  milliseconds bound(std::clamp<int64_t>(config_.timeoutMs, 1, 5'000));
  // Ends early when the session closes or the person cancels the turn.
  CancelToken both = closing_.child();
  CancelToken::Registration link = cancel.onCancel([both] { both.cancel(); });
  Status pong = client->ping(bound, both);
  if (pong.ok()) return ". The server still answers a ping, so it stays connected.";
  if (pong.error().code == Errc::cancelled) return "";  // no verdict: nothing is dropped
  {
    std::lock_guard lock(clientMutex_);
    if (client_ == client) {
      client_.reset();  // ends the child once the last call holding it returns
      droppedHung_ = true;
    }
  }
  log(LogLevel::warn, "MCP server " + config_.name + " did not answer a ping after a timed-out call: " +
                          pong.error().message + "; it is restarted on the next call");
  return ". It did not answer a ping either, so it is treated as hung: the next call of one of its tools starts it "
         "again.";
}

bool McpServer::hasResources() {
  auto client = current();
  return client && client->hasResources();
}

Result<std::vector<ListedResource>> McpServer::listResources(const CancelToken& cancel) {
  auto live = connection(cancel);
  if (!live) return live.error();
  return (*live)->listResources(connectTimeout(), cancel);
}

ToolResult McpServer::readResource(const std::string& uri, const CancelToken& cancel) {
  const std::string who = "MCP server " + config_.name;
  auto live = connection(cancel);
  if (!live) return ToolResult::failure(ErrorType::execution_failed, who + " is not connected: " + live.error().message);
  auto answer = (*live)->readResource(uri, connectTimeout(), cancel);
  if (!answer) {
    if (answer.error().code == Errc::cancelled) return ToolResult::failure(ErrorType::cancelled, "reading " + uri + " was cancelled");
    return ToolResult::failure(ErrorType::execution_failed, who + " could not read " + uri + ": " + answer.error().message);
  }
  if (!answer->result || !answer->result->IsObject()) {
    return ToolResult::failure(ErrorType::execution_failed, who + " answered resources/read without a result object");
  }
  return mapReadResult(*answer->result, config_.name, uri);
}

void McpServer::shutdown() {
  closing_.cancel();
  std::shared_ptr<McpClient> client;
  {
    std::lock_guard lock(clientMutex_);
    closed_ = true;
    client = std::move(client_);
  }
  client.reset();  // ends the child unless a running call still holds it (then when that call returns)
}

}  // namespace lathe::tools::mcp
