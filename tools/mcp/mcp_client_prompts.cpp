// McpClient's prompts: prompts/list (every page) and prompts/get.
#include <future>

#include "tools/mcp/list_pages.h"
#include "tools/mcp/mcp_client.h"

namespace lathe::tools::mcp {

using std::chrono::milliseconds;

void McpClient::listPromptsAsync(std::function<void(Result<std::vector<ListedPrompt>>)> done) {
  listAllPages<ListedPrompt>(peer_, "prompts/list", "prompts", readPrompt, std::move(done));
}

Result<std::vector<ListedPrompt>> McpClient::listPrompts(milliseconds timeout, const CancelToken& cancel) {
  auto promise = std::make_shared<std::promise<Result<std::vector<ListedPrompt>>>>();
  auto future = promise->get_future();
  listPromptsAsync([promise](Result<std::vector<ListedPrompt>> r) { promise->set_value(std::move(r)); });
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (future.wait_for(milliseconds(50)) == std::future_status::timeout) {
    if (cancel.cancelled()) return makeError(Errc::cancelled, "prompts/list was cancelled");
    if (std::chrono::steady_clock::now() > deadline) {
      return makeError(Errc::timeout, "no answer to prompts/list within " + std::to_string(timeout.count()) + " ms");
    }
  }
  return future.get();
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
