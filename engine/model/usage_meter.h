// What one session's model requests used and cost, every request counted
// (the conversation and the one-shot calls: compression, loop checks, titles,
// web tools): a MeteredProvider adds each reply's reported usage to the
// session's UsageMeter. The cost is known only while every request's model
// has a price (pricing.h); one request to a model of no known price makes it
// unknown for the rest of the session, never an understated figure.
// Thread-safe: one-shot calls run on other threads than the turn.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "engine/model/model_provider.h"
#include "engine/model/pricing.h"

namespace lathe::engine {

class UsageMeter {
 public:
  explicit UsageMeter(PriceTable prices = {}) : prices_(std::move(prices)) {}

  void add(const std::string& model, const Usage& usage);
  // The session's cost so far in US dollars; nullopt when it is not known.
  std::optional<double> cost() const;
  // A reopened session goes on from the cost its record showed (nullopt:
  // unknown, e.g. recorded before costs were).
  void restore(std::optional<double> cost);
  // The tokens used since the last call (a turn's), nullopt when no request reported any.
  std::optional<Usage> takeSinceLast();

 private:
  PriceTable prices_;
  mutable std::mutex mutex_;
  double cost_ = 0;
  bool costKnown_ = true;
  Usage since_;
  bool reported_ = false;
};

// A provider whose replies are counted on a meter; otherwise the inner one.
class MeteredProvider final : public ModelProvider {
 public:
  MeteredProvider(std::shared_ptr<ModelProvider> inner, std::shared_ptr<UsageMeter> meter)
      : inner_(std::move(inner)), meter_(std::move(meter)) {}

  Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk, const CancelToken& cancel) override;
  Result<ModelReply> generate(const ModelRequest& request, const CancelToken& cancel) override;
  std::optional<Result<int64_t>> countTokens(const ModelRequest& request, const CancelToken& cancel) override {
    return inner_->countTokens(request, cancel);  // counting is free
  }
  bool supportsWebSearch() const override { return inner_->supportsWebSearch(); }

 private:
  Result<ModelReply> counted(const ModelRequest& request, Result<ModelReply> reply);
  std::shared_ptr<ModelProvider> inner_;
  std::shared_ptr<UsageMeter> meter_;
};

}  // namespace lathe::engine
