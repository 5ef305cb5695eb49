// The Gemini API provider: streams a reply from :streamGenerateContent over
// SSE, retrying transient failures before anything was delivered. stream()
// blocks: call it on a worker thread; several calls may run at once.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "engine/model/model_provider.h"

namespace lathe::engine {

class GeminiProvider final : public ModelProvider {
 public:
  // Waits for a backoff delay; must return early when the token is cancelled.
  using SleepFn = std::function<void(std::chrono::milliseconds, const CancelToken&)>;

  struct Options {
    std::string apiKey;  // GEMINI_API_KEY
    std::string baseUrl = "https://generativelanguage.googleapis.com";  // GOOGLE_GEMINI_BASE_URL
    std::chrono::milliseconds connectTimeout{10'000};
    std::chrono::milliseconds readTimeout{300'000};  // silence allowed between bytes
    int maxAttempts = 5;
    std::chrono::milliseconds initialBackoff{1'000};
    std::chrono::milliseconds maxBackoff{30'000};
    std::chrono::milliseconds maxRetryAfter{60'000};  // a longer Retry-After ends the call
    SleepFn sleep;  // empty: a real wait that cancellation interrupts
  };

  explicit GeminiProvider(Options options);
  ~GeminiProvider() override;
  GeminiProvider(const GeminiProvider&) = delete;
  GeminiProvider& operator=(const GeminiProvider&) = delete;

  Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk,
                            const CancelToken& cancel) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lathe::engine
