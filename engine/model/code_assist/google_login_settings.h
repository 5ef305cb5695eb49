// Log in with Google as Gemini CLI reads it from the environment: where the
// login is kept (~/.gemini/oauth_creds.json under GEMINI_CLI_HOME or HOME),
// the Code Assist endpoint (CODE_ASSIST_ENDPOINT, CODE_ASSIST_API_VERSION),
// the person's own Cloud project (GOOGLE_CLOUD_PROJECT, else
// GOOGLE_CLOUD_PROJECT_ID), the loopback port of a fresh login
// (OAUTH_CALLBACK_PORT), and for tests Google's OAuth endpoints
// (LATHE_GOOGLE_AUTH_URL, LATHE_GOOGLE_TOKEN_URL). Pure.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "engine/model/google/cached_login.h"

namespace lathe::engine {

struct GoogleLoginSettings {
  std::string loginPath;
  google::OAuthEndpoints oauth;
  std::string endpoint = "https://cloudcode-pa.googleapis.com";
  std::string apiVersion = "v1internal";
  std::string project;
  int callbackPort = 0;  // 0: a free port; -1: OAUTH_CALLBACK_PORT is not a port
};

GoogleLoginSettings googleLoginFromEnvironment(const std::function<std::optional<std::string>(const char*)>& env);

}  // namespace lathe::engine
