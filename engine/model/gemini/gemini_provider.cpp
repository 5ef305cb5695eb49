// Gemini over the shared HTTP client: the wire mapping lives in gemini_wire;
// this file only names the endpoints, attaches the credential and reads the
// API's errors.
#include "engine/model/gemini/gemini_provider.h"

#include "engine/model/gemini/gemini_wire.h"
#include "engine/model/gemini/refusals.h"
#include "engine/model/gemini/reply_stream.h"

namespace lathe::engine {

GeminiProvider::GeminiProvider(Options options) : options_(std::move(options)) {}

http::DescribeStatus GeminiProvider::statusDescriber() const {
  return gemini::describeRefusals(options_.apiName, options_.credential, options_.fix);
}

Result<http::Client> GeminiProvider::client(const CancelToken& cancel) const {
  auto endpoint = http::parseBaseUrl(options_.baseUrl, "The " + options_.apiName + " base URL (" + options_.baseUrlSetting + ")");
  if (!endpoint) return endpoint.error();
  http::Client::Options client;
  client.apiName = options_.apiName;
  if (options_.tokens) {
    auto token = options_.tokens->token(cancel);
    if (!token) return token.error();
    client.headers.emplace_back("Authorization", "Bearer " + *token);
  } else if (!options_.apiKey.empty()) {
    client.headers.emplace_back("x-goog-api-key", options_.apiKey);
  }
  for (const auto& header : options_.headers) client.headers.push_back(header);
  client.connectTimeout = options_.connectTimeout;
  client.readTimeout = options_.readTimeout;
  client.retry = {options_.maxAttempts, options_.initialBackoff, options_.maxBackoff, options_.maxRetryAfter};
  client.sleep = options_.sleep;
  return http::Client(*endpoint, std::move(client));
}

template <class T, class Call>
Result<T> GeminiProvider::withClient(const Call& call, const CancelToken& cancel) {
  for (int attempt = 0;; ++attempt) {
    auto made = client(cancel);
    if (!made) return made.error();
    Result<T> result = call(*made);
    // A cached token may have been revoked or expired early: one new token, one more try.
    const bool refused = !result && result.error().code == Errc::auth_required;
    if (!refused || !options_.tokens || attempt > 0) return result;
    options_.tokens->invalidate();
  }
}

Status GeminiProvider::credentialsReady() const {
  if (!options_.apiKey.empty() || options_.tokens || !options_.keyRequired) return {};
  return makeError(Errc::auth_required,
                   options_.missingKeyHint.empty()
                       ? "No Gemini API key: log in from your editor with a Gemini API key, or set GEMINI_API_KEY "
                         "to a key from https://aistudio.google.com/apikey."
                       : options_.missingKeyHint);
}

Result<std::string> GeminiProvider::modelPath(const ModelRequest& request) const {
  if (auto ready = credentialsReady(); !ready) return ready.error();
  std::string_view model = request.model;
  if (model.starts_with("models/")) model.remove_prefix(7);
  if (model.empty()) return makeError(Errc::invalid_params, "No Gemini model was named for the request.");
  return options_.modelsPath + std::string(model);
}

Result<ModelReply> GeminiProvider::stream(const ModelRequest& request, const ChunkSink& onChunk,
                                          const CancelToken& cancel) {
  auto path = modelPath(request);
  if (!path) return path.error();
  const std::string body = gemini::buildRequestBody(request);
  return withClient<ModelReply>(
      [&](http::Client& client) -> Result<ModelReply> {
        ReplyAccumulator reply;
        http::StreamCallbacks callbacks = gemini::replyStream(reply, gemini::parseResponseChunk, onChunk);
        callbacks.describeStatus = statusDescriber();
        callbacks.onRetry = retryHookFor(request);
        auto status = client.streamEvents(*path + ":streamGenerateContent?alt=sse", body, callbacks, cancel);
        if (!status) return status.error();
        return reply.take();
      },
      cancel);
}

Result<ModelReply> GeminiProvider::generate(const ModelRequest& request, const CancelToken& cancel) {
  auto path = modelPath(request);
  if (!path) return path.error();
  const std::string body = gemini::buildRequestBody(request);
  return withClient<ModelReply>(
      [&](http::Client& client) -> Result<ModelReply> {
        auto answer = client.post(*path + ":generateContent", body, statusDescriber(), cancel);
        if (!answer) return answer.error();
        auto chunk = gemini::parseResponseChunk(*answer);
        if (!chunk) return chunk.error();
        ReplyAccumulator reply;
        reply.add(*chunk);
        return reply.take();
      },
      cancel);
}

std::optional<Result<int64_t>> GeminiProvider::countTokens(const ModelRequest& request, const CancelToken& cancel) {
  auto path = modelPath(request);
  if (!path) return Result<int64_t>(path.error());
  const std::string body = gemini::buildCountTokensBody(request);
  return withClient<int64_t>(
      [&](http::Client& client) -> Result<int64_t> {
        auto answer = client.post(*path + ":countTokens", body, statusDescriber(), cancel);
        if (!answer) return answer.error();
        return gemini::parseCountTokens(*answer);
      },
      cancel);
}

}  // namespace lathe::engine
