// One user message in, the reply's visible text and grounding out.
#include "engine/model/one_shot_adapter.h"

#include <vector>

namespace lathe::engine {
namespace {

constexpr const char* kSystemInstruction =
    "You answer one request for a coding agent, from the material the request gives you (or, when you can search "
    "the web, from what you find). Be accurate and concise, keep the details the request asks for, and say plainly "
    "when the material does not hold the answer.";

}  // namespace

OneShotAdapter::OneShotAdapter(std::shared_ptr<ModelProvider> provider, std::function<std::string()> currentModel)
    : provider_(std::move(provider)), currentModel_(std::move(currentModel)) {}

bool OneShotAdapter::canSearchWeb() const { return provider_ && provider_->supportsWebSearch(); }

Result<tools::OneShotAnswer> OneShotAdapter::answer(const std::string& prompt, const CancelToken& cancel) {
  return ask(prompt, false, cancel);
}

Result<tools::OneShotAnswer> OneShotAdapter::searchWeb(const std::string& query, const CancelToken& cancel) {
  if (!canSearchWeb()) return makeError(Errc::invalid_request, "This model provider offers no web search.");
  return ask(query, true, cancel);
}

Result<tools::OneShotAnswer> OneShotAdapter::ask(const std::string& text, bool webSearch, const CancelToken& cancel) {
  if (!provider_) return makeError(Errc::invalid_request, "No model provider is configured.");
  std::vector<Content> contents{Content{Role::user, {Part::makeText(text)}}};
  ModelRequest request;
  request.model = currentModel_();
  request.systemInstruction = kSystemInstruction;
  request.contents = &contents;
  request.webSearch = webSearch;
  request.config.temperature = 0;
  request.config.topP = 1;
  request.config.includeThoughts = false;
  auto reply = provider_->generate(request, cancel);
  if (!reply) return reply.error();
  tools::OneShotAnswer out;
  for (const Part& part : reply->content.parts) {
    if (part.text && !part.thought) out.text += *part.text;
  }
  out.grounding = std::move(reply->grounding);
  return out;
}

}  // namespace lathe::engine
