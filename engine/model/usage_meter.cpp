// Usage and cost accounting.
#include "engine/model/usage_meter.h"

#include <utility>

namespace lathe::engine {

void UsageMeter::add(const std::string& model, const Usage& usage) {
  std::optional<Price> price = priceOf(model, prices_);
  std::lock_guard lock(mutex_);
  if (price) {
    cost_ += costOf(usage, *price);
  } else {
    costKnown_ = false;
  }
  since_.promptTokens += usage.promptTokens;
  since_.candidatesTokens += usage.candidatesTokens;
  since_.thoughtsTokens += usage.thoughtsTokens;
  since_.cachedTokens += usage.cachedTokens;
  since_.totalTokens += usage.totalTokens;
  reported_ = true;
}

std::optional<double> UsageMeter::cost() const {
  std::lock_guard lock(mutex_);
  if (!costKnown_) return std::nullopt;
  return cost_;
}

void UsageMeter::restore(std::optional<double> cost) {
  std::lock_guard lock(mutex_);
  costKnown_ = cost.has_value();
  cost_ = cost.value_or(0);
}

std::optional<Usage> UsageMeter::takeSinceLast() {
  std::lock_guard lock(mutex_);
  if (!std::exchange(reported_, false)) return std::nullopt;
  return std::exchange(since_, Usage{});
}

Result<ModelReply> MeteredProvider::counted(const ModelRequest& request, Result<ModelReply> reply) {
  if (reply && reply->usage) meter_->add(request.model, *reply->usage);
  return reply;
}

Result<ModelReply> MeteredProvider::stream(const ModelRequest& request, const ChunkSink& onChunk,
                                           const CancelToken& cancel) {
  return counted(request, inner_->stream(request, onChunk, cancel));
}

Result<ModelReply> MeteredProvider::generate(const ModelRequest& request, const CancelToken& cancel) {
  return counted(request, inner_->generate(request, cancel));
}

}  // namespace lathe::engine
