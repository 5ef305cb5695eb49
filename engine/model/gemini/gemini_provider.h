// The Gemini API provider: streams a reply from :streamGenerateContent over
// SSE, generates one from :generateContent and counts tokens with
// :countTokens, all through the shared HTTP client (retries, backoff,
// cancellation). The same wire serves Vertex AI under its own model path,
// with an API key or a bearer token from Application Default Credentials
// (fetched per request from a cache; renewed once after a 401).
// Blocking: call it on a worker thread; several calls may run at once.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/google/access_tokens.h"
#include "engine/model/model_provider.h"
#include "protocol/http/http_client.h"

namespace lathe::engine {

class GeminiProvider final : public ModelProvider {
 public:
  struct Options {
    std::string apiKey;  // GEMINI_API_KEY; sent as x-goog-api-key when set
    std::string baseUrl = "https://generativelanguage.googleapis.com";  // GOOGLE_GEMINI_BASE_URL
    std::string apiName = "Gemini API";
    std::string baseUrlSetting = "GOOGLE_GEMINI_BASE_URL";  // named when the base URL is bad
    std::string modelsPath = "/v1beta/models/";  // Vertex AI: /v1/projects/P/locations/L/publishers/google/models/
    // A gateway authenticates by its own headers: no key needed.
    std::vector<std::pair<std::string, std::string>> headers;
    bool keyRequired = true;
    std::shared_ptr<google::AccessTokenSource> tokens;  // bearer tokens instead of a key
    std::string missingKeyHint;  // why there is no credential and what to do, for the auth-required error
    // For a 401/403: what authenticated ("the API key in GEMINI_API_KEY") and how to fix it.
    std::string credential = "the API key in GEMINI_API_KEY";
    std::string fix = "set GEMINI_API_KEY to a key from https://aistudio.google.com/apikey, or log in again from your editor";
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
  // A key, a token source, or a gateway that needs neither.
  Status credentialsReady() const override;

 private:
  // The model's path, or why a request cannot be made.
  Result<std::string> modelPath(const ModelRequest& request) const;
  // The client for one call: the endpoint, the key or a current token.
  Result<http::Client> client(const CancelToken& cancel) const;
  // Runs call with a client; with bearer tokens, once more with a new token after a 401.
  template <class T, class Call>
  Result<T> withClient(const Call& call, const CancelToken& cancel);
  http::DescribeStatus statusDescriber() const;

  Options options_;
};

}  // namespace lathe::engine
