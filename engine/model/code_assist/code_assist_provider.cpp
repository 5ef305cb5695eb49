// Code Assist over the shared HTTP client: the wire lives in code_assist_wire,
// the project's setup in project_setup; this file names the endpoints and
// attaches the login's token.
#include "engine/model/code_assist/code_assist_provider.h"

#include <random>

#include "engine/model/code_assist/code_assist_wire.h"
#include "engine/model/code_assist/project_setup.h"
#include "engine/model/gemini/gemini_wire.h"
#include "engine/model/gemini/refusals.h"
#include "engine/model/gemini/reply_stream.h"
#include "engine/model/google/token_retry.h"
#include "protocol/http/exchange.h"

namespace lathe::engine {
namespace {

constexpr const char* kApi = "Code Assist API";

// The session id Code Assist requests carry (not a secret).
std::string randomSessionId() {
  std::random_device device;
  std::uniform_int_distribution<int> nibble(0, 15);
  std::string id;
  for (int i = 0; i < 32; ++i) id += "0123456789abcdef"[nibble(device)];
  return id;
}

}  // namespace

CodeAssistProvider::CodeAssistProvider(Options options) : options_(std::move(options)), sessionId_(randomSessionId()) {}

Status CodeAssistProvider::credentialsReady() const {
  if (options_.tokens) return {};
  return makeError(Errc::auth_required, options_.missingLoginHint.empty()
                                            ? "Not logged in with Google: log in from your editor (Log in with Google)."
                                            : options_.missingLoginHint);
}

http::DescribeStatus CodeAssistProvider::statusDescriber() const {
  return gemini::describeRefusals(kApi, "your Google login in " + options_.loginPath,
                                  "log in with Google again from your editor");
}

Result<http::Client> CodeAssistProvider::client(const std::string& token) const {
  auto endpoint = http::parseBaseUrl(baseUrl(), "The Code Assist endpoint (CODE_ASSIST_ENDPOINT)");
  if (!endpoint) return endpoint.error();
  http::Client::Options client;
  client.apiName = kApi;
  client.headers.emplace_back("Authorization", "Bearer " + token);
  client.connectTimeout = options_.connectTimeout;
  client.readTimeout = options_.readTimeout;
  client.retry.maxAttempts = options_.maxAttempts;
  client.sleep = options_.sleep;
  return http::Client(*endpoint, std::move(client));
}

Result<std::string> CodeAssistProvider::post(const std::string& method, const std::string& body,
                                             const CancelToken& cancel) {
  if (auto ready = credentialsReady(); !ready) return ready.error();
  return google::withFreshToken<std::string>(
      *options_.tokens,
      [&](const std::string& token) -> Result<std::string> {
        auto http = client(token);
        if (!http) return http.error();
        return http->post(":" + method, body, statusDescriber(), cancel);
      },
      cancel);
}

Result<std::string> CodeAssistProvider::getOperation(const std::string& name, const CancelToken& cancel) {
  if (auto ready = credentialsReady(); !ready) return ready.error();
  return google::withFreshToken<std::string>(
      *options_.tokens,
      [&](const std::string& token) -> Result<std::string> {
        http::RawRequest request;
        request.method = "GET";
        request.url = baseUrl() + "/" + name;
        request.headers = {{"Authorization", "Bearer " + token}, {"Accept", "application/json"}};
        request.connectTimeout = options_.connectTimeout;
        request.readTimeout = std::chrono::milliseconds(30'000);
        int status = 0;
        std::string body;
        auto head = http::exchange(
            request, [&](const http::ResponseHead& h) { status = h.status; return true; },
            [&](std::string_view piece) { body.append(piece); return body.size() < 1024 * 1024; }, cancel);
        if (!head) return head.error();
        if (status != 200) return statusDescriber()(status, body).error;
        return body;
      },
      cancel);
}

Result<std::string> CodeAssistProvider::project(const CancelToken& cancel) {
  std::lock_guard lock(setupMutex_);
  if (!project_.empty()) return project_;
  code_assist::SetupCalls calls;
  calls.post = [this](const std::string& method, const std::string& body, const CancelToken& c) { return post(method, body, c); };
  calls.get = [this](const std::string& name, const CancelToken& c) { return getOperation(name, c); };
  calls.sleep = [this](std::chrono::milliseconds delay, const CancelToken& c) {
    if (options_.sleep) {
      options_.sleep(delay, c);
    } else {
      http::cancellableSleep(delay, c);
    }
    return !c.cancelled();
  };
  auto found = code_assist::setUpProject(calls, options_.project, cancel);
  if (!found) return found.error();
  project_ = *found;
  return project_;
}

Result<std::string> CodeAssistProvider::wrapped(const ModelRequest& request, const CancelToken& cancel) {
  if (auto ready = credentialsReady(); !ready) return ready.error();
  if (request.model.empty()) return makeError(Errc::invalid_params, "No Gemini model was named for the request.");
  auto projectId = project(cancel);
  if (!projectId) return projectId.error();
  code_assist::RequestIds ids{*projectId, sessionId_ + "########" + std::to_string(++requests_), sessionId_};
  return code_assist::buildGenerateRequest(request, ids);
}

Result<ModelReply> CodeAssistProvider::stream(const ModelRequest& request, const ChunkSink& onChunk,
                                              const CancelToken& cancel) {
  auto body = wrapped(request, cancel);
  if (!body) return body.error();
  return google::withFreshToken<ModelReply>(
      *options_.tokens,
      [&](const std::string& token) -> Result<ModelReply> {
        auto http = client(token);
        if (!http) return http.error();
        ReplyAccumulator reply;
        http::StreamCallbacks callbacks = gemini::replyStream(reply, code_assist::parseResponse, onChunk);
        callbacks.describeStatus = statusDescriber();
        callbacks.onRetry = retryHookFor(request);
        auto status = http->streamEvents(":streamGenerateContent?alt=sse", *body, callbacks, cancel);
        if (!status) return status.error();
        return reply.take();
      },
      cancel);
}

Result<ModelReply> CodeAssistProvider::generate(const ModelRequest& request, const CancelToken& cancel) {
  auto body = wrapped(request, cancel);
  if (!body) return body.error();
  auto answer = post("generateContent", *body, cancel);
  if (!answer) return answer.error();
  auto chunk = code_assist::parseResponse(*answer);
  if (!chunk) return chunk.error();
  ReplyAccumulator reply;
  reply.add(*chunk);
  return reply.take();
}

std::optional<Result<int64_t>> CodeAssistProvider::countTokens(const ModelRequest& request, const CancelToken& cancel) {
  auto answer = post("countTokens", code_assist::buildCountTokensRequest(request), cancel);
  if (!answer) return Result<int64_t>(answer.error());
  return gemini::parseCountTokens(*answer);
}

}  // namespace lathe::engine
