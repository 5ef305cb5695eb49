// McpClient's prompts: prompts/list (every page) and prompts/get.
#include <future>

#include "tools/mcp/mcp_client.h"

namespace lathe::tools::mcp {

using std::chrono::milliseconds;

void McpClient::promptPage(std::string cursor, std::shared_ptr<std::vector<ListedPrompt>> sofar,
                           std::shared_ptr<std::function<void(Result<std::vector<ListedPrompt>>)>> done) {
  auto params = [cursor](json::Writer& w) {
    w.StartObject();
    if (!cursor.empty()) json::put(w, "cursor", cursor);
    w.EndObject();
  };
  peer_->request("prompts/list", params, [this, sofar, done](Result<rpc::Response> page) {
    if (!page) return (*done)(page.error());
    const json::Value* prompts = page->result ? json::find(*page->result, "prompts") : nullptr;
    if (!prompts || !prompts->IsArray()) {
      return (*done)(makeError(Errc::invalid_request, "prompts/list answered without a prompts array"));
    }
    for (const auto& prompt : prompts->GetArray()) {
      if (prompt.IsObject() && json::getStr(prompt, "name")) sofar->push_back(readPrompt(prompt));
    }
    std::string next = json::getStr(*page->result, "nextCursor").value_or("");
    if (next.empty()) return (*done)(std::move(*sofar));
    if (sofar->size() > 10000) return (*done)(makeError(Errc::invalid_request, "prompts/list keeps paging past 10000 prompts"));
    promptPage(next, sofar, done);
  });
}

void McpClient::listPromptsAsync(std::function<void(Result<std::vector<ListedPrompt>>)> done) {
  promptPage("", std::make_shared<std::vector<ListedPrompt>>(),
             std::make_shared<std::function<void(Result<std::vector<ListedPrompt>>)>>(std::move(done)));
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
