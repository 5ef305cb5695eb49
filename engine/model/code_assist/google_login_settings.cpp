// Log in with Google's environment.
#include "engine/model/code_assist/google_login_settings.h"

#include <cstdlib>

namespace lathe::engine {

GoogleLoginSettings googleLoginFromEnvironment(const std::function<std::optional<std::string>(const char*)>& env) {
  GoogleLoginSettings out;
  auto home = env("GEMINI_CLI_HOME");
  if (!home) home = env("HOME");
  if (home) out.loginPath = google::cachedLoginPath(*home + "/.gemini");
  out.oauth = google::oauthEndpointsFrom(env);
  if (auto endpoint = env("CODE_ASSIST_ENDPOINT")) out.endpoint = *endpoint;
  if (auto version = env("CODE_ASSIST_API_VERSION")) out.apiVersion = *version;
  out.project = env("GOOGLE_CLOUD_PROJECT").value_or(env("GOOGLE_CLOUD_PROJECT_ID").value_or(""));
  if (auto port = env("OAUTH_CALLBACK_PORT")) {
    char* end = nullptr;
    long value = std::strtol(port->c_str(), &end, 10);
    out.callbackPort = end && *end == '\0' && value > 0 && value <= 65535 ? static_cast<int>(value) : -1;
  }
  return out;
}

}  // namespace lathe::engine
