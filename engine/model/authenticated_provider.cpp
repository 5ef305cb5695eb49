// Credentials to provider options, and the switch between providers.
#include "engine/model/authenticated_provider.h"

#include "engine/model/google/login_flow.h"
#include "protocol/base/log.h"

namespace lathe::engine {
namespace {

constexpr const char* kGeminiKey = "gemini-api-key";
constexpr const char* kGateway = "gateway";
constexpr const char* kOpenAiKey = "openai-api-key";
constexpr const char* kVertex = "vertex-ai";
constexpr const char* kGoogle = "oauth-personal";

// Gemini CLI's logins Lathe cannot perform, and what the person can do instead.
std::string unsupportedLogin(const std::string& selectedType) {
  return "Your Gemini CLI settings select the login \"" + selectedType +
         "\" (security.auth.selectedType), which Lathe cannot use. Log in from your editor (with Google or a Gemini "
         "API key), or set GEMINI_API_KEY to a key from https://aistudio.google.com/apikey.";
}

bool knownLogin(const std::string& type) {
  return type == kGeminiKey || type == kGateway || type == kOpenAiKey || type == kVertex || type == kGoogle;
}

void useGoogleLogin(ProviderOptions& options) {
  options.googleLogin = true;
  options.vertex = false;
  options.gateway = false;
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
  provider->googleInForce_ = options->googleLogin;
  return provider;
}

std::vector<AuthMethod> AuthenticatedProvider::methods(bool editorShowsUrls) const {
  if (base_.api == ModelApi::openai) {
    return {{kOpenAiKey, "Use an OpenAI-compatible API key",
             "A key for the OpenAI-compatible server Lathe is set up for (OPENAI_BASE_URL); kept only for you.",
             R"({"api-key":{"provider":"openai"}})"}};
  }
  std::vector<AuthMethod> out;
  auto cached = google::readCachedLogin(base_.google.loginPath);
  if (editorShowsUrls || (cached && *cached)) {
    out.push_back({kGoogle, "Log in with Google",
                   "Your Google account, as Gemini CLI's Log in with Google (the login is shared with it, in "
                   "~/.gemini/oauth_creds.json).",
                   ""});
  }
  out.push_back({kGeminiKey, "Use Gemini API key",
                 "A key from https://aistudio.google.com/apikey, given by the editor (or GEMINI_API_KEY); kept only "
                 "for you.",
                 R"({"api-key":{"provider":"google"}})"});
  out.push_back({kVertex, "Vertex AI",
                 "Gemini on Vertex AI from the environment: GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION with "
                 "Application Default Credentials, or an express-mode key (GOOGLE_API_KEY, or given by the editor).",
                 ""});
  out.push_back({kGateway, "Use an AI gateway",
                 "A gateway in front of the Gemini API: its base URL and headers, given by the editor.",
                 R"({"gateway":{"protocol":"google","restartRequired":"false"}})"});
  return out;
}

Result<ProviderOptions> AuthenticatedProvider::optionsFor(const std::optional<Credentials>& credentials) const {
  ProviderOptions options = base_;
  if (!credentials) {
    if (selectedType_ == kGateway) {
      options.gateway = true;
      options.vertex = false;
      options.googleLogin = false;
    } else if (selectedType_ == kGeminiKey) {
      options.vertex = false;  // the person picked the Gemini API over GOOGLE_GENAI_USE_VERTEXAI
      options.googleLogin = false;
    } else if (selectedType_ == kVertex) {
      options.vertex = true;
      options.googleLogin = false;
    } else if (selectedType_ == kGoogle) {
      useGoogleLogin(options);
    } else if (!selectedType_.empty() && !knownLogin(selectedType_) && options.api == ModelApi::gemini) {
      options.missingKeyHint = unsupportedLogin(selectedType_);
    }
    if (options.api == ModelApi::openai) options.googleLogin = false;
    return options;
  }
  const std::string& method = credentials->method;
  const bool openaiMethod = method == kOpenAiKey;
  if (openaiMethod != (base_.api == ModelApi::openai)) {
    return makeError(Errc::invalid_params, "the auth method \"" + method + "\" is not one this provider offers");
  }
  options.googleLogin = false;
  if (method == kGoogle) {
    useGoogleLogin(options);
  } else if (method == kGeminiKey) {
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

Status AuthenticatedProvider::authenticate(Credentials given, const LoginPrompt& prompt, const CancelToken& cancel) {
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
  const bool google = given.method == kGoogle;
  if (google) given = Credentials{kGoogle, "", "", {}};  // its tokens live in the login file Gemini CLI shares
  auto options = optionsFor(given);
  if (!options) return options.error();
  auto built = google ? googleLogin(*options, prompt, cancel) : makeProvider(*options);
  if (!built) return built.error();
  // A key the environment already holds is not copied to disk.
  if (keyGiven || google || given.method == kGateway || given.method == kVertex) {
    if (auto saved = store_.save(given); !saved) return saved.error();
  }
  std::lock_guard lock(mutex_);
  current_ = std::move(built).value();
  googleInForce_ = google;
  return {};
}

Result<std::shared_ptr<ModelProvider>> AuthenticatedProvider::googleLogin(const ProviderOptions& options,
                                                                          const LoginPrompt& prompt,
                                                                          const CancelToken& cancel) {
  auto built = makeProvider(options);
  if (!built) return built.error();
  // A cached login that still works is used as it is.
  Status ready = (*built)->credentialsReady();
  if (ready) ready = (*built)->prepare(cancel);
  if (ready) return built;
  if (ready.error().code != Errc::auth_required || cancel.cancelled()) return ready.error();
  if (!prompt.showUrl) {
    return makeError(Errc::auth_required,
                     ready.error().message + " Your editor cannot show Google's login page (it takes no URL "
                     "elicitation): log in once with Gemini CLI, whose login Lathe shares, or use a Gemini API key.");
  }
  google::LoginFlowOptions flow;
  flow.endpoints = options.google.oauth;
  flow.loginPath = options.google.loginPath;
  flow.callbackPort = options.google.callbackPort;
  auto login = google::logInWithGoogle(flow, prompt.showUrl, cancel);
  if (!login) return login.error();
  if (prompt.finished) prompt.finished();
  built = makeProvider(options);  // with the new login
  if (!built) return built.error();
  if (auto prepared = (*built)->prepare(cancel); !prepared) return prepared.error();
  return built;
}

Status AuthenticatedProvider::logout() {
  bool google = false;
  {
    std::lock_guard lock(mutex_);
    google = googleInForce_;
  }
  if (auto removed = store_.remove(); !removed) return removed.error();
  if (google) {
    if (auto removed = google::removeCachedLogin(base_.google.loginPath); !removed) return removed.error();
  }
  auto built = makeProvider(*optionsFor(std::nullopt));
  if (!built) return built.error();
  std::lock_guard lock(mutex_);
  current_ = std::move(built).value();
  googleInForce_ = false;
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

Status AuthenticatedProvider::credentialsReady() const { return current()->credentialsReady(); }

}  // namespace lathe::engine
