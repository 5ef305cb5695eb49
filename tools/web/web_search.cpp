// google_web_search: one call to the model with its web search tool; the
// grounded answer reaches the model with citation markers and its sources
// (search_result.h). Declared only when the session's provider can search.
// Runs on a worker thread, without asking (kind search).
#include "tools/web/search_result.h"
#include "tools/web/web_tools.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "query": {"type": "string", "description": "The search query to find information on the web."}
  },
  "required": ["query"]
})";

constexpr const char* kDescription =
    "Performs a web search using Google Search (via the Gemini API) and returns the results: an answer drawn from "
    "the web with numbered citations and the list of sources. Useful for current events, documentation and facts "
    "beyond what you know.";

class WebSearchInvocation final : public ToolInvocation {
 public:
  WebSearchInvocation(std::shared_ptr<OneShotModel> model, std::string query)
      : model_(std::move(model)), query_(std::move(query)) {}

  std::string description() const override { return "Searching the web for: \"" + query_ + "\""; }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    auto answer = model_->searchWeb(query_, cancel);
    if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Web search was cancelled.");
    if (!answer) {
      return ToolResult::failure(ErrorType::execution_failed,
                                 "Error during web search for query \"" + query_ + "\": " + answer.error().message);
    }
    if (answer->text.find_first_not_of(" \t\r\n") == std::string::npos) {
      std::string none = "No search results or information found for query: \"" + query_ + "\"";
      return ToolResult::text(none, none);
    }
    return ToolResult::text(web::formatSearchResult(query_, *answer), "Search results for \"" + query_ + "\" returned.");
  }

 private:
  std::shared_ptr<OneShotModel> model_;
  std::string query_;
};

class WebSearchTool final : public Tool {
 public:
  explicit WebSearchTool(std::shared_ptr<OneShotModel> model)
      : Tool(ToolInfo{.name = "google_web_search",
                      .displayName = "GoogleSearch",
                      .description = kDescription,
                      .kind = Kind::search,
                      .parametersSchema = kSchema}),
        model_(std::move(model)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    std::string query = r.str("query");
    if (!r.ok()) return invalidParams(r.error().message);
    if (query.find_first_not_of(" \t\r\n") == std::string::npos) {
      return invalidParams("The 'query' parameter cannot be empty.");
    }
    return {std::make_unique<WebSearchInvocation>(model_, std::move(query)), std::nullopt};
  }

 private:
  std::shared_ptr<OneShotModel> model_;
};

}  // namespace

std::unique_ptr<Tool> makeWebSearchTool(const ToolContext& context) {
  if (!context.model || !context.model->canSearchWeb()) return nullptr;
  return std::make_unique<WebSearchTool>(context.model);
}

}  // namespace lathe::tools
