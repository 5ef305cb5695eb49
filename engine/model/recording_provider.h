// Wraps a provider and appends each successful reply (streamed or generated) to a file in
// Gemini CLI's `--record-responses` format, one JSON line per call, so a
// ReplayProvider (or `gemini --fake-responses`) can play it back. Thread-safe.
#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "engine/model/model_provider.h"

namespace lathe::engine {

class RecordingProvider final : public ModelProvider {
 public:
  // Opens (creates or appends to) the file at once so a bad path fails early.
  static Result<std::unique_ptr<RecordingProvider>> open(std::shared_ptr<ModelProvider> inner,
                                                         const std::string& path);
  ~RecordingProvider() override;
  RecordingProvider(const RecordingProvider&) = delete;
  RecordingProvider& operator=(const RecordingProvider&) = delete;

  // Streams through the wrapped provider; records the reply if it succeeded.
  // A failure to write the record fails the call (Errc::io).
  Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk,
                            const CancelToken& cancel) override;
  // Generates through the wrapped provider; records it as a generateContent line.
  Result<ModelReply> generate(const ModelRequest& request, const CancelToken& cancel) override;
  // Counts through the wrapped provider; records a count as a countTokens line.
  std::optional<Result<int64_t>> countTokens(const ModelRequest& request, const CancelToken& cancel) override;
  bool supportsWebSearch() const override { return inner_->supportsWebSearch(); }
  Status credentialsReady() const override { return inner_->credentialsReady(); }
  Status prepare(const CancelToken& cancel) override { return inner_->prepare(cancel); }

 private:
  Status append(std::string line);
  RecordingProvider(std::shared_ptr<ModelProvider> inner, std::string path, std::FILE* file);

  const std::shared_ptr<ModelProvider> inner_;
  const std::string path_;
  std::mutex mutex_;  // guards file_ writes
  std::FILE* file_;
};

}  // namespace lathe::engine
