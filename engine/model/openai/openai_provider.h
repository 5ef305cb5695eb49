// A provider for any OpenAI-compatible Chat Completions API (OpenAI, Ollama,
// llama.cpp's server, vLLM, LM Studio): streams with stream_options
// include_usage, falls back to a whole JSON answer when a server ignores
// `stream`, and generates one-shot replies; retries, timeouts and cancel come
// from the shared HTTP client. Blocking: call it on a worker thread.
#pragma once

#include <chrono>
#include <string>

#include "engine/model/model_provider.h"
#include "protocol/http/http_client.h"

namespace lathe::engine {

class OpenAiProvider final : public ModelProvider {
 public:
  struct Options {
    std::string apiKey;                               // OPENAI_API_KEY; may be empty for local servers
    std::string baseUrl = "https://api.openai.com/v1";  // OPENAI_BASE_URL
    std::chrono::milliseconds connectTimeout{10'000};
    std::chrono::milliseconds readTimeout{300'000};
    int maxAttempts = 5;
    http::Client::SleepFn sleep;  // empty: a real wait that cancellation interrupts
  };

  explicit OpenAiProvider(Options options);

  Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk,
                            const CancelToken& cancel) override;
  Result<ModelReply> generate(const ModelRequest& request, const CancelToken& cancel) override;
  // OpenAI's own API needs a key; other servers (local ones) may not.
  Status credentialsReady() const override;

 private:
  Result<http::Client> client(const ModelRequest& request) const;

  Options options_;
};

}  // namespace lathe::engine
