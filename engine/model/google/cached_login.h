// Log in with Google as Gemini CLI keeps it: its installed-app OAuth client
// (the refresh tokens it hands out are bound to that client, so Lathe must
// present the same one to use them), the scopes it asks for, and the tokens
// cached in ~/.gemini/oauth_creds.json (mode 600), which both programs read.
// The endpoints can be replaced for tests (LATHE_GOOGLE_AUTH_URL,
// LATHE_GOOGLE_TOKEN_URL). Pure apart from the file functions; any thread.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "engine/model/google/access_tokens.h"
#include "protocol/base/result.h"

namespace lathe::engine::google {

struct OAuthEndpoints {
  std::string authUrl = "https://accounts.google.com/o/oauth2/v2/auth";
  std::string tokenUrl = "https://oauth2.googleapis.com/token";
};

// Gemini CLI's OAuth client for installed apps. Google documents that such a
// client's secret is not secret (it ships in every copy of the program).
const std::string& geminiCliClientId();
const std::string& geminiCliClientSecret();
// The scopes Gemini CLI asks for, space-separated (cloud-platform, the
// account's e-mail address and profile).
const std::string& loginScopes();

OAuthEndpoints oauthEndpointsFrom(const std::function<std::optional<std::string>(const char*)>& env);

// The tokens of one login, as Gemini CLI writes them.
struct CachedLogin {
  std::string accessToken;
  std::string refreshToken;
  std::string scope;
  std::string tokenType = "Bearer";
  std::string idToken;
  std::optional<std::chrono::system_clock::time_point> expiry;  // expiry_date, in ms since the epoch
};

// ~/.gemini/oauth_creds.json for Gemini CLI's folder (empty: none).
std::string cachedLoginPath(const std::string& geminiDir);

// nullopt when there is no file; an error naming the file when it cannot be
// used (damaged, readable by others, no refresh token).
Result<std::optional<CachedLogin>> readCachedLogin(const std::string& path);
Status writeCachedLogin(const std::string& path, const CachedLogin& login);
Status removeCachedLogin(const std::string& path);

// A token source for the login: its cached access token until it expires,
// then the refresh-token grant at the token endpoint.
std::shared_ptr<AccessTokenSource> loginTokens(const std::string& path, const CachedLogin& login,
                                               const OAuthEndpoints& endpoints, AccessTokenSource::Options options = {});

}  // namespace lathe::engine::google
