// McpServer's prompts: listed when it connects, re-listed when it says they
// changed, and fetched for a command.
#include "protocol/base/log.h"
#include "tools/mcp/mcp_server.h"

namespace lathe::tools::mcp {

std::vector<ListedPrompt> McpServer::prompts() const {
  std::lock_guard lock(promptsMutex_);
  return prompts_;
}

void McpServer::setPrompts(std::vector<ListedPrompt> prompts) {
  {
    std::lock_guard lock(promptsMutex_);
    prompts_ = std::move(prompts);
  }
  if (env_.promptsChanged) env_.promptsChanged();
}

void McpServer::listPromptsAtConnect(McpClient& client, const CancelToken& cancel) {
  if (!client.hasPrompts()) return setPrompts({});
  auto listed = client.listPrompts(connectTimeout(), cancel);
  if (!listed) {
    // Its tools still work: only its prompts are missing.
    log(LogLevel::warn, "MCP server " + config_.name + ": prompts/list failed: " + listed.error().message);
    return setPrompts({});
  }
  setPrompts(std::move(listed).value());
}

void McpServer::refreshPrompts(McpClient& client) {
  std::weak_ptr<McpServer> weak = weak_from_this();
  client.listPromptsAsync([weak](Result<std::vector<ListedPrompt>> listed) {
    auto self = weak.lock();
    if (!self) return;
    if (!listed) {
      log(LogLevel::warn, "MCP server " + self->config_.name + ": re-listing prompts failed: " + listed.error().message);
      return;
    }
    self->setPrompts(std::move(listed).value());
  });
}

Result<std::vector<PromptContent>> McpServer::getPrompt(const std::string& name, const std::string& argumentsJson,
                                                        const CancelToken& cancel) {
  const std::string who = "MCP server " + config_.name;
  auto live = connection(cancel);
  if (!live) return makeError(live.error().code, who + " is not connected: " + live.error().message);
  auto answer = (*live)->getPrompt(name, argumentsJson, connectTimeout(), cancel);
  if (!answer) {
    if (answer.error().code == Errc::cancelled) return answer.error();
    return makeError(answer.error().code, who + " could not give the prompt " + name + ": " + answer.error().message);
  }
  if (!answer->result || !answer->result->IsObject()) {
    return makeError(Errc::invalid_request, who + " answered prompts/get without a result object");
  }
  return promptMessages(*answer->result, config_.name, name);
}

bool McpServer::connectedNow() {
  auto client = current();
  return client && client->alive();
}

}  // namespace lathe::tools::mcp
