// Replays recorded model replies from Gemini CLI's `--fake-responses FILE`
// format: JSON lines {"method":"generateContentStream","response":[chunk...]}
// (also generateContent, countTokens, embedContent). Thread-safe: calls from
// several threads take records one at a time.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/model/model_provider.h"

namespace lathe::engine {

class ReplayProvider final : public ModelProvider {
 public:
  enum class Order {
    strict,    // --fake-responses: records in file order, a method mismatch is an error
    byMethod,  // --fake-responses-non-strict: the first unused record of the asked method
  };
  struct Options {
    Order order = Order::strict;
  };

  // Loads and checks the whole file; errors name FILE:LINE.
  static Result<std::unique_ptr<ReplayProvider>> open(const std::string& path, Options options);
  static Result<std::unique_ptr<ReplayProvider>> open(const std::string& path) { return open(path, Options{}); }

  // Replays the next generateContentStream record, chunk by chunk.
  Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk,
                            const CancelToken& cancel) override;
  // Replays the next generateContent record (a reply that is not streamed).
  Result<ModelReply> generate(const ModelRequest& request, const CancelToken& cancel) override;
  // Replays a countTokens record when it is next (strict) or left (byMethod);
  // nullopt otherwise. Counts are optional: the other calls skip over them.
  std::optional<Result<int64_t>> countTokens(const ModelRequest& request, const CancelToken& cancel) override;
  // Recordings are Gemini's replies, web search ones included.
  bool supportsWebSearch() const override { return true; }

  size_t used() const;       // records taken so far
  size_t remaining() const;  // records not taken yet

 private:
  struct Record {
    size_t line = 0;  // 1-based, in the file
    std::string method;
    std::vector<ModelChunk> chunks;  // one for generateContent; none for other methods
    int64_t totalTokens = 0;         // countTokens
  };

  ReplayProvider(std::string path, Options options, std::vector<Record> records);
  Result<const Record*> take(const std::string& method);
  const Record* takeCount();

  const std::string path_;
  const Options options_;
  const std::vector<Record> records_;
  mutable std::mutex mutex_;
  size_t cursor_ = 0;           // strict order
  std::vector<bool> consumed_;  // byMethod order
  size_t used_ = 0;
};

}  // namespace lathe::engine
