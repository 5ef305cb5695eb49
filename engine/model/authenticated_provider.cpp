// Credentials to provider options, and the switch between providers.
#include "engine/model/authenticated_provider.h"

#include "protocol/base/log.h"

namespace lathe::engine {
namespace {

constexpr const char* kGeminiKey = "gemini-api-key";
constexpr const char* kGateway = "gateway";
constexpr const char* kOpenAiKey = "openai-api-key";
constexpr const char* kVertex = "vertex-ai";

// Gemini CLI's logins Lathe cannot perform, and what the person can do instead.
std::string unsupportedLogin(const std::string& selectedType) {
  std::string what = selectedType == "oauth-personal" ? "Log in with Google" : selectedType;
  return "Your Gemini CLI settings select " + what + " (security.auth.selectedType \"" + selectedType +
         "\"), which Lathe cannot use. Log in from your editor with a Gemini API key, or set GEMINI_API_KEY to a "
         "key from https://aistudio.google.com/apikey.";
}

}  // namespace

AuthenticatedProvider::AuthenticatedProvider(ProviderOptions base, std::string selectedType, CredentialStore store)
    : base_(std::move(base)), selectedType_(std::move(selectedType)), store_(std::move(store)) {}

Result<std::shared_ptr<AuthenticatedProvider>> AuthenticatedProvider::create(ProviderOptions base,
                                                                             std::string selectedType,
                                                                             CredentialStore store) {
  std::shared_ptr<AuthenticatedProvider> provider(
      new AuthenticatedProvider(std::move(base), std::move(selectedType), std::move(store)));
  auto stored = provider->store_.load();
  if (!stored) {
    // A damaged file is not a reason to refuse to start: the person logs in again.
    log(LogLevel::warn, stored.error().message);
    stored = std::optional<Credentials>{};
  }
  auto options = provider->optionsFor(*stored);
  if (!options) options = provider->optionsFor(std::nullopt);  // kept for another API: the environment's
  if (!options) return options.error();
  auto built = makeProvider(*options);
  if (!built) return built.error();
  provider->current_ = std::move(built).value();
  return provider;
}

std::vector<AuthMethod> AuthenticatedProvider::methods() const {
  if (base_.api == ModelApi::openai) {
    return {{kOpenAiKey, "Use an OpenAI-compatible API key",
             "A key for the OpenAI-compatible server Lathe is set up for (OPENAI_BASE_URL); kept only for you."}};
  }
  return {{kGeminiKey, "Use Gemini API key",
           "A key from https://aistudio.google.com/apikey, given by the editor (or GEMINI_API_KEY); kept only for you."},
          {kVertex, "Vertex AI",
           "Gemini on Vertex AI from the environment: GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION with "
           "Application Default Credentials, or an express-mode key (GOOGLE_API_KEY, or given by the editor)."},
          {kGateway, "Use an AI gateway",
           "A gateway in front of the Gemini API: its base URL and headers, given by the editor."}};
}

Result<ProviderOptions> AuthenticatedProvider::optionsFor(const std::optional<Credentials>& credentials) const {
  ProviderOptions options = base_;
  if (!credentials) {
    if (selectedType_ == kGateway) {
      options.gateway = true;
      options.vertex = false;
    } else if (selectedType_ == kGeminiKey) {
      options.vertex = false;  // the person picked the Gemini API over GOOGLE_GENAI_USE_VERTEXAI
    } else if (selectedType_ == kVertex) {
      options.vertex = true;
    } else if (!selectedType_.empty() && selectedType_ != kGeminiKey && selectedType_ != kOpenAiKey &&
               options.api == ModelApi::gemini) {
      options.missingKeyHint = unsupportedLogin(selectedType_);
    }
    return options;
  }
  const std::string& method = credentials->method;
  const bool openaiMethod = method == kOpenAiKey;
  if (openaiMethod != (base_.api == ModelApi::openai)) {
    return makeError(Errc::invalid_params, "the auth method \"" + method + "\" is not one this provider offers");
  }
  if (method == kGeminiKey) {
    options.vertex = false;
    options.apiKey = credentials->apiKey;
    if (credentials->apiKey != base_.apiKey) {
      options.credential = "the Gemini API key your editor gave";
      options.credentialFix = "log in again from your editor with a current key from https://aistudio.google.com/apikey";
    }
  } else if (method == kVertex) {
    options.vertex = true;
    if (!credentials->apiKey.empty()) options.vertexSettings = VertexSettings{"", "", options.vertexSettings.baseUrl, credentials->apiKey, ""};
  } else if (method == kGateway) {
    options.vertex = false;
    options.credential = "the gateway's headers";
    options.credentialFix = "check the gateway's base URL and headers, then log in again from your editor";
    options.gateway = true;
    options.apiKey = credentials->apiKey;
    if (!credentials->baseUrl.empty()) options.baseUrl = credentials->baseUrl;
    options.gatewayHeaders = credentials->headers;
  } else if (openaiMethod) {
    options.openaiApiKey = credentials->apiKey;
  } else {
    return makeError(Errc::invalid_params, "unknown auth method \"" + method + "\"");
  }
  return options;
}

Status AuthenticatedProvider::authenticate(Credentials given) {
  const bool keyGiven = !given.apiKey.empty();
  if (given.method == kGeminiKey && given.apiKey.empty()) given.apiKey = base_.apiKey;
  if (given.method == kOpenAiKey && given.apiKey.empty()) given.apiKey = base_.openaiApiKey;
  if ((given.method == kGeminiKey || given.method == kOpenAiKey) && given.apiKey.empty()) {
    return makeError(Errc::auth_required, "no API key was given: the editor sends it in _meta[\"api-key\"] of "
                                          "authenticate, or set " +
                                              std::string(given.method == kGeminiKey ? "GEMINI_API_KEY" : "OPENAI_API_KEY"));
  }
  if (given.method == kVertex && given.apiKey.empty()) {
    // From the environment: usable only when Vertex AI is configured there.
    if (auto endpoint = vertexEndpoint(base_.vertexSettings); !endpoint) return endpoint.error();
  }
  if (given.method == kGateway && given.baseUrl.empty() && base_.baseUrl.empty()) {
    return makeError(Errc::invalid_params, "the gateway needs a base URL: _meta.gateway.baseUrl of authenticate, "
                                           "or GOOGLE_GEMINI_BASE_URL");
  }
  auto options = optionsFor(given);
  if (!options) return options.error();
  auto built = makeProvider(*options);
  if (!built) return built.error();
  // A key the environment already holds is not copied to disk.
  if (keyGiven || given.method == kGateway || given.method == kVertex) {
    if (auto saved = store_.save(given); !saved) return saved.error();
  }
  std::lock_guard lock(mutex_);
  current_ = std::move(built).value();
  return {};
}

Status AuthenticatedProvider::logout() {
  if (auto removed = store_.remove(); !removed) return removed.error();
  auto built = makeProvider(*optionsFor(std::nullopt));
  if (!built) return built.error();
  std::lock_guard lock(mutex_);
  current_ = std::move(built).value();
  return {};
}

std::shared_ptr<ModelProvider> AuthenticatedProvider::current() const {
  std::lock_guard lock(mutex_);
  return current_;
}

Result<ModelReply> AuthenticatedProvider::stream(const ModelRequest& request, const ChunkSink& onChunk,
                                                 const CancelToken& cancel) {
  return current()->stream(request, onChunk, cancel);
}

Result<ModelReply> AuthenticatedProvider::generate(const ModelRequest& request, const CancelToken& cancel) {
  return current()->generate(request, cancel);
}

std::optional<Result<int64_t>> AuthenticatedProvider::countTokens(const ModelRequest& request, const CancelToken& cancel) {
  return current()->countTokens(request, cancel);
}

bool AuthenticatedProvider::supportsWebSearch() const { return current()->supportsWebSearch(); }

}  // namespace lathe::engine
