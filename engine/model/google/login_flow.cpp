// The loopback listener is a cpp-httplib server whose connections are served
// inline on the calling thread (no pool of its own); it stops once the
// browser came back, or when the deadline's token (which cancellation
// cancels too) fires.
#include "engine/model/google/login_flow.h"

#include <httplib.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <mutex>
#include <optional>

#include "engine/model/google/jwt_assertion.h"
#include "protocol/http/deadline.h"

namespace lathe::engine::google {
namespace {

constexpr const char* kCallbackPath = "/oauth2callback";

Result<std::string> randomBytes(size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1) {
    return makeError(Errc::internal, "no random bytes for the login's state");
  }
  return out;
}

std::string pkceChallenge(const std::string& verifier) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), digest);
  return base64Url(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

// Serves each connection at once on the listening thread.
class InlineQueue final : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override {}
};

// Stops the server once, whichever comes first: a request to stop before
// it runs is carried out as soon as it does.
class Stopper {
 public:
  explicit Stopper(httplib::Server& server) : server_(server) {}
  void request() {
    std::lock_guard lock(mutex_);
    wanted_ = true;
    stopNow();
  }
  void running() {
    std::lock_guard lock(mutex_);
    running_ = true;
    stopNow();
  }

 private:
  void stopNow() {
    if (!wanted_ || !running_ || stopped_) return;
    stopped_ = true;
    server_.stop();
  }
  httplib::Server& server_;
  std::mutex mutex_;
  bool wanted_ = false, running_ = false, stopped_ = false;
};

const char* page(bool ok) {
  return ok ? "<!doctype html><title>Lathe</title><p>Lathe is logged in with Google. You can close this tab.</p>"
            : "<!doctype html><title>Lathe</title><p>The login did not work; Lathe says why in your editor.</p>";
}

}  // namespace

std::string authorizationUrl(const OAuthEndpoints& endpoints, const std::string& redirectUri, const std::string& state,
                             const std::string& challenge) {
  return endpoints.authUrl + (endpoints.authUrl.find('?') == std::string::npos ? "?" : "&") +
         "client_id=" + formEncode(geminiCliClientId()) + "&redirect_uri=" + formEncode(redirectUri) +
         "&response_type=code&scope=" + formEncode(loginScopes()) + "&access_type=offline&prompt=consent" +
         "&state=" + formEncode(state) + "&code_challenge=" + formEncode(challenge) + "&code_challenge_method=S256";
}

Result<CachedLogin> logInWithGoogle(const LoginFlowOptions& options, const ShowLoginUrl& show, const CancelToken& cancel) {
  if (options.callbackPort < 0) return makeError(Errc::invalid_params, "OAUTH_CALLBACK_PORT is not a port number");
  auto stateBytes = randomBytes(32);
  auto verifierBytes = randomBytes(32);
  if (!stateBytes || !verifierBytes) return makeError(Errc::internal, "no random bytes for the login");
  const std::string state = base64Url(*stateBytes);
  const std::string verifier = base64Url(*verifierBytes);

  httplib::Server server;
  server.set_keep_alive_max_count(1);
  server.set_read_timeout(std::chrono::seconds(10));
  int port = options.callbackPort;
  if (port == 0) {
    port = server.bind_to_any_port("127.0.0.1");
  } else if (!server.bind_to_port("127.0.0.1", port)) {
    port = -1;
  }
  if (port <= 0) return makeError(Errc::io, "cannot listen on 127.0.0.1 for Google's redirect");
  const std::string redirectUri = "http://127.0.0.1:" + std::to_string(port) + kCallbackPath;

  Stopper stopper(server);
  server.new_task_queue = [&stopper] {
    stopper.running();
    return new InlineQueue;
  };
  http::Deadline deadline(cancel, options.deadline);
  auto registration = deadline.token().onCancel([&] { stopper.request(); });
  std::optional<Result<CachedLogin>> outcome;
  server.Get(kCallbackPath, [&](const httplib::Request& req, httplib::Response& res) {
    if (req.get_param_value("state") != state) {
      res.status = 400;  // not the browser we sent: ignored, the login goes on
      res.set_content("This is not the login Lathe is waiting for.", "text/plain");
      return;
    }
    if (req.has_param("error")) {
      std::string why = req.get_param_value("error");
      if (req.has_param("error_description")) why += ": " + req.get_param_value("error_description");
      outcome = makeError(Errc::auth_required, "Google did not log you in (" + why + ").");
    } else if (std::string code = req.get_param_value("code"); code.empty()) {
      outcome = makeError(Errc::auth_required, "Google's redirect brought no authorization code; log in again.");
    } else {
      std::string form = "grant_type=authorization_code&code=" + formEncode(code) + "&client_id=" +
                         formEncode(geminiCliClientId()) + "&client_secret=" + formEncode(geminiCliClientSecret()) +
                         "&redirect_uri=" + formEncode(redirectUri) + "&code_verifier=" + formEncode(verifier);
      auto grant = requestToken(options.endpoints.tokenUrl, form, "the login's authorization code",
                                "log in with Google again", options.timeouts, deadline.token());
      if (!grant) {
        outcome = grant.error();
      } else if (grant->refreshToken.empty()) {
        outcome = makeError(Errc::auth_required, "Google logged you in but gave no refresh token; log in again.");
      } else {
        CachedLogin login{grant->accessToken, grant->refreshToken, grant->scope,
                          grant->tokenType.empty() ? "Bearer" : grant->tokenType, grant->idToken,
                          std::chrono::system_clock::now() + grant->expiresIn};
        auto kept = writeCachedLogin(options.loginPath, login);
        outcome = kept ? Result<CachedLogin>(std::move(login)) : Result<CachedLogin>(kept.error());
      }
    }
    res.set_content(page(outcome->ok()), "text/html; charset=utf-8");
    stopper.request();
  });

  show(authorizationUrl(options.endpoints, redirectUri, state, pkceChallenge(verifier)));
  server.listen_after_bind();
  if (outcome) return std::move(*outcome);
  if (cancel.cancelled()) return makeError(Errc::cancelled, "Log in with Google was cancelled.");
  return makeError(Errc::timeout, "Log in with Google was not finished within five minutes; log in again.");
}

}  // namespace lathe::engine::google
