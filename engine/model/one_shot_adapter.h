// The session's model behind tools::OneShotModel: web_fetch and
// google_web_search ask one whole question through ModelProvider::generate,
// with the session's current model. Thread-safe (the provider is); the model
// name is read at each call, so a model switch applies to the next question.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "engine/model/model_provider.h"
#include "tools/core/one_shot_model.h"

namespace lathe::engine {

class OneShotAdapter final : public tools::OneShotModel {
 public:
  OneShotAdapter(std::shared_ptr<ModelProvider> provider, std::function<std::string()> currentModel);

  Result<tools::OneShotAnswer> answer(const std::string& prompt, const CancelToken& cancel) override;
  bool canSearchWeb() const override;
  Result<tools::OneShotAnswer> searchWeb(const std::string& query, const CancelToken& cancel) override;

 private:
  Result<tools::OneShotAnswer> ask(const std::string& text, bool webSearch, const CancelToken& cancel);

  std::shared_ptr<ModelProvider> provider_;
  std::function<std::string()> currentModel_;
};

}  // namespace lathe::engine
