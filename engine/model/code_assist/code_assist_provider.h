// Gemini through Google's Code Assist API, the way Gemini CLI's Log in with
// Google reaches it: {endpoint}/v1internal:streamGenerateContent (and
// :generateContent, :countTokens) with the login's bearer token, the request
// wrapped with the person's Cloud project (found once, by loadCodeAssist and
// onboardUser: project_setup.h) and the reply unwrapped (code_assist_wire.h).
// CODE_ASSIST_ENDPOINT and CODE_ASSIST_API_VERSION replace the endpoint.
// Blocking: call it on a worker thread; several calls may run at once.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "engine/model/google/access_tokens.h"
#include "engine/model/model_provider.h"
#include "protocol/http/http_client.h"

namespace lathe::engine {

class CodeAssistProvider final : public ModelProvider {
 public:
  struct Options {
    std::string endpoint = "https://cloudcode-pa.googleapis.com";  // CODE_ASSIST_ENDPOINT
    std::string apiVersion = "v1internal";                         // CODE_ASSIST_API_VERSION
    std::shared_ptr<google::AccessTokenSource> tokens;              // null: not logged in
    std::string missingLoginHint;  // the auth-required message without a login
    std::string loginPath;         // where the login is kept, for messages
    std::string project;           // GOOGLE_CLOUD_PROJECT or GOOGLE_CLOUD_PROJECT_ID; empty: the account's own
    std::chrono::milliseconds connectTimeout{10'000};
    std::chrono::milliseconds readTimeout{300'000};
    int maxAttempts = 5;
    http::Client::SleepFn sleep;  // empty: a real wait that cancellation interrupts
  };

  explicit CodeAssistProvider(Options options);

  Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk, const CancelToken& cancel) override;
  Result<ModelReply> generate(const ModelRequest& request, const CancelToken& cancel) override;
  std::optional<Result<int64_t>> countTokens(const ModelRequest& request, const CancelToken& cancel) override;
  bool supportsWebSearch() const override { return true; }
  Status credentialsReady() const override;
  Status prepare(const CancelToken& cancel) override {
    auto found = project(cancel);
    return found ? Status{} : Status(found.error());
  }

  // The person's project: found on first use (one setup at a time), then kept.
  Result<std::string> project(const CancelToken& cancel);

 private:
  Result<http::Client> client(const std::string& token) const;
  http::DescribeStatus statusDescriber() const;
  // POST {base}:method with the login's token (a new one after a 401).
  Result<std::string> post(const std::string& method, const std::string& body, const CancelToken& cancel);
  Result<std::string> getOperation(const std::string& name, const CancelToken& cancel);
  std::string baseUrl() const { return options_.endpoint + "/" + options_.apiVersion; }
  // The wrapped body for a turn's request (project and ids).
  Result<std::string> wrapped(const ModelRequest& request, const CancelToken& cancel);

  Options options_;
  const std::string sessionId_;  // one per process, as a Gemini CLI session
  std::atomic<uint64_t> requests_{0};
  std::mutex setupMutex_;  // one setup at a time; guards project_
  std::string project_;
};

}  // namespace lathe::engine
