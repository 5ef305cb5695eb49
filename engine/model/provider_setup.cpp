// Provider selection.
#include "engine/model/provider_setup.h"

#include "engine/model/code_assist/code_assist_provider.h"
#include "engine/model/gemini/gemini_provider.h"
#include "engine/model/openai/openai_provider.h"
#include "engine/model/recording_provider.h"
#include "engine/model/replay_provider.h"
#include "protocol/base/enum_names.h"

namespace lathe::engine {

namespace {

constexpr EnumName<ModelApi> kModelApis[] = {{ModelApi::gemini, "gemini"}, {ModelApi::openai, "openai"}};

}  // namespace

const char* toString(ModelApi api) { return nameOf(kModelApis, api); }

std::optional<ModelApi> parseModelApi(std::string_view name) { return valueOf(kModelApis, name); }

namespace {

// Vertex AI: its endpoint, model path and credential; what is missing becomes
// the auth-required error of the first request (the agent still starts).
void useVertex(const VertexSettings& settings, GeminiProvider::Options& gemini) {
  gemini.apiName = "Vertex AI";
  gemini.baseUrlSetting = "GOOGLE_VERTEX_BASE_URL";
  gemini.apiKey.clear();
  gemini.headers.clear();
  gemini.keyRequired = true;
  auto endpoint = vertexEndpoint(settings);
  if (!endpoint) {
    gemini.missingKeyHint = endpoint.error().message;
    return;
  }
  gemini.baseUrl = endpoint->baseUrl;
  gemini.modelsPath = endpoint->modelsPath;
  gemini.apiKey = endpoint->apiKey;
  gemini.tokens = endpoint->tokens;
  gemini.credential = endpoint->credential;
  gemini.fix = endpoint->fix;
}

// Log in with Google: the cached login's tokens, or why there are none.
std::shared_ptr<ModelProvider> codeAssist(const ProviderOptions& options) {
  CodeAssistProvider::Options out;
  out.endpoint = options.google.endpoint;
  out.apiVersion = options.google.apiVersion;
  out.project = options.google.project;
  out.loginPath = options.google.loginPath;
  auto login = google::readCachedLogin(options.google.loginPath);
  if (!login) {
    out.missingLoginHint = "Log in with Google: " + login.error().message + ".";
  } else if (!*login) {
    out.missingLoginHint = "Log in with Google: you are not logged in (no " +
                           (options.google.loginPath.empty() ? std::string("~/.gemini/oauth_creds.json") : options.google.loginPath) +
                           "). Log in from your editor (Log in with Google), or once with Gemini CLI.";
  } else {
    out.tokens = google::loginTokens(options.google.loginPath, **login, options.google.oauth);
  }
  out.readTimeout = options.readTimeout;
  out.connectTimeout = options.connectTimeout;
  out.maxAttempts = options.maxAttempts;
  return std::make_shared<CodeAssistProvider>(std::move(out));
}

}  // namespace

Result<std::shared_ptr<ModelProvider>> makeProvider(const ProviderOptions& options) {
  std::shared_ptr<ModelProvider> provider;
  if (!options.fakeResponsesPath.empty()) {
    ReplayProvider::Options replay;
    replay.order = options.fakeResponsesNonStrict ? ReplayProvider::Order::byMethod : ReplayProvider::Order::strict;
    auto opened = ReplayProvider::open(options.fakeResponsesPath, replay);
    if (!opened) return opened.error();
    provider = std::move(opened).value();
  } else if (options.api == ModelApi::openai) {
    OpenAiProvider::Options openai;
    openai.apiKey = options.openaiApiKey;
    if (!options.openaiBaseUrl.empty()) openai.baseUrl = options.openaiBaseUrl;
    openai.readTimeout = options.readTimeout;
    openai.connectTimeout = options.connectTimeout;
    openai.maxAttempts = options.maxAttempts;
    provider = std::make_shared<OpenAiProvider>(std::move(openai));
  } else if (options.googleLogin) {
    provider = codeAssist(options);
  } else {
    GeminiProvider::Options gemini;
    gemini.apiKey = options.apiKey;
    gemini.headers = options.gatewayHeaders;
    gemini.keyRequired = !options.gateway;
    gemini.missingKeyHint = options.missingKeyHint;
    if (!options.credential.empty()) gemini.credential = options.credential;
    if (!options.credentialFix.empty()) gemini.fix = options.credentialFix;
    if (!options.baseUrl.empty()) gemini.baseUrl = options.baseUrl;
    if (options.vertex) useVertex(options.vertexSettings, gemini);
    gemini.readTimeout = options.readTimeout;
    gemini.connectTimeout = options.connectTimeout;
    gemini.maxAttempts = options.maxAttempts;
    provider = std::make_shared<GeminiProvider>(std::move(gemini));
  }
  if (!options.recordResponsesPath.empty()) {
    auto recording = RecordingProvider::open(provider, options.recordResponsesPath);
    if (!recording) return recording.error();
    provider = std::move(recording).value();
  }
  return provider;
}

}  // namespace lathe::engine
