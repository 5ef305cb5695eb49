// A fresh Log in with Google by the loopback redirect of RFC 8252, as Gemini
// CLI does it: a listener on 127.0.0.1 (a free port, or OAUTH_CALLBACK_PORT),
// an authorization URL with a random state and a PKCE challenge (S256) that
// the person opens in a browser (`show` gives it to them: over ACP, a URL
// elicitation), and the code the browser brings back exchanged for tokens,
// which are kept in the cached login file that Lathe and Gemini CLI share.
// It ends when the browser comes back, at the deadline (five minutes), or on
// cancellation (the person declined, the editor went away). A request that
// does not carry the state is answered and ignored. Blocking: run it on a
// worker; the listener answers on the calling thread only.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "engine/model/google/cached_login.h"
#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::engine::google {

struct LoginFlowOptions {
  OAuthEndpoints endpoints;
  std::string loginPath;  // where the tokens are kept
  int callbackPort = 0;   // 0: a free port
  std::chrono::milliseconds deadline{300'000};
  TokenTimeouts timeouts;
};

// Called once, when the listener is ready, with the URL to open; it must not
// wait for the person.
using ShowLoginUrl = std::function<void(const std::string& url)>;

// The tokens, also written to options.loginPath.
Result<CachedLogin> logInWithGoogle(const LoginFlowOptions& options, const ShowLoginUrl& show, const CancelToken& cancel);

// The authorization URL for a redirect URI, state and PKCE challenge (for tests).
std::string authorizationUrl(const OAuthEndpoints& endpoints, const std::string& redirectUri, const std::string& state,
                             const std::string& challenge);

}  // namespace lathe::engine::google
