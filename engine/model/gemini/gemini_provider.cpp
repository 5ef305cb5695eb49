// Gemini over the shared HTTP client: the wire mapping lives in gemini_wire;
// this file only names the endpoints and reads the API's errors.
#include "engine/model/gemini/gemini_provider.h"

#include "engine/model/gemini/gemini_wire.h"

namespace lathe::engine {
namespace {

http::StatusError describeStatus(int status, std::string_view body) {
  std::string message = gemini::describeHttpError(status, body);
  auto apiError = gemini::parseApiError(body);
  bool badKey = status == 401 || (apiError && apiError->reason.starts_with("API_KEY_"));
  if (badKey) message += " Check GEMINI_API_KEY.";
  http::StatusError out{makeError(badKey ? Errc::auth_required : Errc::http, std::move(message)), std::nullopt};
  if (apiError) out.retryAfter = apiError->retryDelay;
  return out;
}

}  // namespace

GeminiProvider::GeminiProvider(Options options) : options_(std::move(options)) {}

http::Client::Options GeminiProvider::clientOptions() const {
  http::Client::Options client;
  client.apiName = "Gemini API";
  if (!options_.apiKey.empty()) client.headers.emplace_back("x-goog-api-key", options_.apiKey);
  for (const auto& header : options_.headers) client.headers.push_back(header);
  client.connectTimeout = options_.connectTimeout;
  client.readTimeout = options_.readTimeout;
  client.retry = {options_.maxAttempts, options_.initialBackoff, options_.maxBackoff, options_.maxRetryAfter};
  client.sleep = options_.sleep;
  return client;
}

Result<std::string> GeminiProvider::modelPath(const ModelRequest& request) const {
  if (options_.apiKey.empty() && options_.keyRequired) {
    return makeError(Errc::auth_required,
                     options_.missingKeyHint.empty()
                         ? "No Gemini API key: log in from your editor with a Gemini API key, or set GEMINI_API_KEY "
                           "to a key from https://aistudio.google.com/apikey."
                         : options_.missingKeyHint);
  }
  std::string_view model = request.model;
  if (model.starts_with("models/")) model.remove_prefix(7);
  if (model.empty()) return makeError(Errc::invalid_params, "No Gemini model was named for the request.");
  return "/v1beta/models/" + std::string(model);
}

Result<ModelReply> GeminiProvider::stream(const ModelRequest& request, const ChunkSink& onChunk,
                                          const CancelToken& cancel) {
  auto endpoint = http::parseBaseUrl(options_.baseUrl, "The Gemini base URL (GOOGLE_GEMINI_BASE_URL)");
  if (!endpoint) return endpoint.error();
  auto path = modelPath(request);
  if (!path) return path.error();
  http::Client client(*endpoint, clientOptions());
  ReplyAccumulator reply;
  http::StreamCallbacks callbacks;
  callbacks.onAttempt = [&] { reply = ReplyAccumulator(); };
  callbacks.onEvent = [&](const http::SseEvent& event) -> std::optional<http::EventError> {
    auto chunk = gemini::parseResponseChunk(event.data);
    if (!chunk) {
      auto apiError = gemini::parseApiError(event.data);
      return http::EventError{chunk.error(), apiError && http::retryableStatus(apiError->code)};
    }
    reply.add(*chunk);
    if (onChunk) onChunk(*chunk);
    return std::nullopt;
  };
  callbacks.describeStatus = describeStatus;
  auto status = client.streamEvents(*path + ":streamGenerateContent?alt=sse", gemini::buildRequestBody(request),
                                    callbacks, cancel);
  if (!status) return status.error();
  return reply.take();
}

Result<ModelReply> GeminiProvider::generate(const ModelRequest& request, const CancelToken& cancel) {
  auto endpoint = http::parseBaseUrl(options_.baseUrl, "The Gemini base URL (GOOGLE_GEMINI_BASE_URL)");
  if (!endpoint) return endpoint.error();
  auto path = modelPath(request);
  if (!path) return path.error();
  http::Client client(*endpoint, clientOptions());
  auto body = client.post(*path + ":generateContent", gemini::buildRequestBody(request), describeStatus, cancel);
  if (!body) return body.error();
  auto chunk = gemini::parseResponseChunk(*body);
  if (!chunk) return chunk.error();
  ReplyAccumulator reply;
  reply.add(*chunk);
  return reply.take();
}

std::optional<Result<int64_t>> GeminiProvider::countTokens(const ModelRequest& request, const CancelToken& cancel) {
  auto endpoint = http::parseBaseUrl(options_.baseUrl, "The Gemini base URL (GOOGLE_GEMINI_BASE_URL)");
  if (!endpoint) return Result<int64_t>(endpoint.error());
  auto path = modelPath(request);
  if (!path) return Result<int64_t>(path.error());
  http::Client client(*endpoint, clientOptions());
  auto body = client.post(*path + ":countTokens", gemini::buildCountTokensBody(request), describeStatus, cancel);
  if (!body) return Result<int64_t>(body.error());
  return gemini::parseCountTokens(*body);
}

}  // namespace lathe::engine
