// OpenAI-compatible Chat Completions over the shared HTTP client.
#include "engine/model/openai/openai_provider.h"

#include "engine/model/openai/openai_wire.h"

namespace lathe::engine {
namespace {

http::StatusError describeStatus(int status, std::string_view body) {
  std::string message = openai::describeHttpError(status, body);
  bool badKey = status == 401;
  if (badKey) message += " Check OPENAI_API_KEY.";
  return {makeError(badKey ? Errc::auth_required : Errc::http, std::move(message)), std::nullopt};
}

}  // namespace

OpenAiProvider::OpenAiProvider(Options options) : options_(std::move(options)) {}

Status OpenAiProvider::credentialsReady() const {
  if (!options_.apiKey.empty() || !options_.baseUrl.starts_with("https://api.openai.com/")) return {};
  return makeError(Errc::auth_required, "No OpenAI API key: log in from your editor with an OpenAI-compatible API key, "
                                        "or set OPENAI_API_KEY.");
}

Result<http::Client> OpenAiProvider::client(const ModelRequest& request) const {
  if (request.model.empty()) return makeError(Errc::invalid_params, "No model was named for the OpenAI-compatible API.");
  auto endpoint = http::parseBaseUrl(options_.baseUrl, "The OpenAI-compatible base URL (OPENAI_BASE_URL)");
  if (!endpoint) return endpoint.error();
  http::Client::Options client;
  client.apiName = "OpenAI-compatible API";
  if (!options_.apiKey.empty()) client.headers = {{"Authorization", "Bearer " + options_.apiKey}};
  client.connectTimeout = options_.connectTimeout;
  client.readTimeout = options_.readTimeout;
  client.retry.maxAttempts = options_.maxAttempts;
  client.sleep = options_.sleep;
  return http::Client(*endpoint, std::move(client));
}

Result<ModelReply> OpenAiProvider::stream(const ModelRequest& request, const ChunkSink& onChunk,
                                          const CancelToken& cancel) {
  auto http = client(request);
  if (!http) return http.error();
  ReplyAccumulator reply;
  openai::StreamAssembler assembler;
  std::optional<ModelReply> whole;
  http::StreamCallbacks callbacks;
  callbacks.onAttempt = [&] {
    reply = ReplyAccumulator();
    assembler = openai::StreamAssembler();
  };
  callbacks.onEvent = [&](const http::SseEvent& event) -> std::optional<http::EventError> {
    if (assembler.done()) return std::nullopt;
    auto shown = assembler.feed(event.data);
    if (!shown) return http::EventError{shown.error(), false};
    if (!shown->parts.empty() || shown->usage) {
      reply.add(*shown);
      if (onChunk) onChunk(*shown);
    }
    return std::nullopt;
  };
  callbacks.onWholeBody = [&](std::string_view body) -> std::optional<http::EventError> {
    auto parsed = openai::parseCompletion(body);
    if (!parsed) return http::EventError{parsed.error(), false};
    whole = std::move(parsed).value();
    return std::nullopt;
  };
  callbacks.describeStatus = describeStatus;
  callbacks.onRetry = retryHookFor(request);
  auto status = http->streamEvents("/chat/completions", openai::buildRequestBody(request, {true}), callbacks, cancel);
  if (!status) return status.error();
  if (whole) {
    ModelChunk shown;
    shown.parts = whole->content.parts;
    if (onChunk) onChunk(shown);
    return std::move(*whole);
  }
  ModelChunk last = assembler.finish();
  reply.add(last);
  if (onChunk && !last.parts.empty()) onChunk(last);
  return reply.take();
}

Result<ModelReply> OpenAiProvider::generate(const ModelRequest& request, const CancelToken& cancel) {
  auto http = client(request);
  if (!http) return http.error();
  auto body = http->post("/chat/completions", openai::buildRequestBody(request, {false}), describeStatus, cancel);
  if (!body) return body.error();
  return openai::parseCompletion(*body);
}

}  // namespace lathe::engine
