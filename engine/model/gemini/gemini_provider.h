// The Gemini API provider: streams a reply from :streamGenerateContent over
// SSE, generates one from :generateContent and counts tokens with
// :countTokens, all through the shared HTTP client (retries, backoff,
// cancellation). Blocking: call it on a worker thread; several calls may run at once.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/model_provider.h"
#include "protocol/http/http_client.h"

namespace lathe::engine {

class GeminiProvider final : public ModelProvider {
 public:
  struct Options {
    std::string apiKey;  // GEMINI_API_KEY; sent as x-goog-api-key when set
    // A gateway authenticates by its own headers: no key needed.
    std::vector<std::pair<std::string, std::string>> headers;
    bool keyRequired = true;
    std::string missingKeyHint;  // why there is no key and what to do, for the auth-required error
    std::string baseUrl = "https://generativelanguage.googleapis.com";  // GOOGLE_GEMINI_BASE_URL
    std::chrono::milliseconds connectTimeout{10'000};
    std::chrono::milliseconds readTimeout{300'000};  // silence allowed between bytes
    int maxAttempts = 5;
    std::chrono::milliseconds initialBackoff{1'000};
    std::chrono::milliseconds maxBackoff{30'000};
    std::chrono::milliseconds maxRetryAfter{60'000};  // a longer Retry-After ends the call
    http::Client::SleepFn sleep;  // empty: a real wait that cancellation interrupts
  };

  explicit GeminiProvider(Options options);

  Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk,
                            const CancelToken& cancel) override;
  Result<ModelReply> generate(const ModelRequest& request, const CancelToken& cancel) override;
  // :countTokens of the request's contents.
  std::optional<Result<int64_t>> countTokens(const ModelRequest& request, const CancelToken& cancel) override;
  bool supportsWebSearch() const override { return true; }  // the googleSearch tool

 private:
  // The client and the model's path, or why a request cannot be made.
  Result<std::string> modelPath(const ModelRequest& request) const;
  http::Client::Options clientOptions() const;

  Options options_;
};

}  // namespace lathe::engine
