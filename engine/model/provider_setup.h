// Chooses and builds the model provider for a process: the Gemini API, a
// replayed recording (--fake-responses), optionally recorded (--record-responses).
// An OpenAI-compatible API is the other choice (--provider openai).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/code_assist/google_login_settings.h"
#include "engine/model/gemini/vertex_ai.h"
#include "engine/model/model_provider.h"
#include "protocol/base/result.h"

namespace lathe::engine {

enum class ModelApi { gemini, openai };
const char* toString(ModelApi api);
std::optional<ModelApi> parseModelApi(std::string_view name);

struct ProviderOptions {
  ModelApi api = ModelApi::gemini;  // --provider, settings model.provider
  std::string apiKey;               // GEMINI_API_KEY
  std::string baseUrl;              // GOOGLE_GEMINI_BASE_URL; empty: Google's endpoint
  // A gateway in front of Gemini (auth method "gateway"): its headers, and no key needed.
  bool gateway = false;
  std::vector<std::pair<std::string, std::string>> gatewayHeaders;
  std::string missingKeyHint;       // the auth-required message when there is no Gemini key
  // Named in 401/403 messages: what authenticated, and how to fix it (empty: GEMINI_API_KEY's).
  std::string credential;
  std::string credentialFix;
  bool vertex = false;              // GOOGLE_GENAI_USE_VERTEXAI, auth method vertex-ai
  VertexSettings vertexSettings;    // read from the environment
  bool googleLogin = false;         // Log in with Google (oauth-personal): Code Assist with the cached login
  GoogleLoginSettings google;       // read from the environment
  std::string openaiApiKey;         // OPENAI_API_KEY
  std::string openaiBaseUrl;        // OPENAI_BASE_URL, --openai-base-url; empty: api.openai.com
  std::string fakeResponsesPath;    // replay instead of calling the API
  bool fakeResponsesNonStrict = false;
  std::string recordResponsesPath;  // append every reply here
  std::chrono::milliseconds readTimeout{300'000};
  std::chrono::milliseconds connectTimeout{10'000};
  int maxAttempts = 5;
};

Result<std::shared_ptr<ModelProvider>> makeProvider(const ProviderOptions& options);

}  // namespace lathe::engine
