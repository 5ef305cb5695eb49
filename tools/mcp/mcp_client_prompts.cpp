// McpClient's prompts: prompts/list (every page) and prompts/get.
#include "tools/mcp/answer_wait.h"
#include "tools/mcp/list_pages.h"
#include "tools/mcp/mcp_client.h"

namespace lathe::tools::mcp {

using std::chrono::milliseconds;

void McpClient::listPromptsAsync(std::function<void(Result<std::vector<ListedPrompt>>)> done) {
  listAllPages<ListedPrompt>(peer_, "prompts/list", "prompts", readPrompt, std::move(done));
}

Result<std::vector<ListedPrompt>> McpClient::listPrompts(milliseconds timeout, const CancelToken& cancel) {
  return waitForAnswer<std::vector<ListedPrompt>>(
      "prompts/list", timeout, cancel,
      [this](std::function<void(Result<std::vector<ListedPrompt>>)> done) { listPromptsAsync(std::move(done)); });
}

Result<rpc::Response> McpClient::getPrompt(const std::string& name, const std::string& argumentsJson,
                                           milliseconds timeout, const CancelToken& cancel) {
  return await(
      "prompts/get",
      [&](json::Writer& w) {
        w.StartObject();
        json::put(w, "name", name);
        json::put(w, "arguments", json::Raw{argumentsJson.empty() ? "{}" : argumentsJson});
        w.EndObject();
      },
      timeout, cancel);
}

}  // namespace lathe::tools::mcp
