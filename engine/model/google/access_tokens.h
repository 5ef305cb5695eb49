// OAuth access tokens for Google Cloud from Application Default Credentials,
// as the Google auth libraries read them: a service-account key file (a
// JWT-bearer grant signed RS256, RFC 7523) or gcloud's authorized_user file
// (a refresh-token grant), and for Gemini CLI's Log in with Google (a
// refresh-token grant too; google/cached_login.h). Tokens are cached until a minute before they
// expire; invalidate() after a 401 makes the next call fetch a new one.
// Any thread; one fetch at a time.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::engine::google {

inline constexpr const char* kCloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform";

struct AdcFile {
  enum class Type { serviceAccount, authorizedUser, googleLogin };
  Type type = Type::serviceAccount;
  std::string path;  // where it was read, for messages
  std::string tokenUri = "https://oauth2.googleapis.com/token";
  // service_account
  std::string clientEmail;
  std::string privateKey;
  std::string privateKeyId;
  // authorized_user, googleLogin
  std::string clientId;
  std::string clientSecret;
  std::string refreshToken;
};

// One grant at an OAuth token endpoint (RFC 6749 section 5.1).
struct TokenGrant {
  std::string accessToken;
  std::string refreshToken;  // when the endpoint issued one
  std::string scope;
  std::string tokenType;
  std::string idToken;
  std::chrono::seconds expiresIn{3600};
};
struct TokenTimeouts {
  std::chrono::milliseconds connectTimeout{10'000};
  std::chrono::milliseconds readTimeout{30'000};
};
// POSTs `form` (already encoded) to tokenUrl. A refusal is Errc::auth_required
// naming `who` was refused and saying `fix`; an unreachable endpoint Errc::http.
Result<TokenGrant> requestToken(const std::string& tokenUrl, const std::string& form, const std::string& who,
                                const std::string& fix, const TokenTimeouts& timeouts, const CancelToken& cancel);
// application/x-www-form-urlencoded (and URL query) encoding of one value.
std::string formEncode(std::string_view text);

// Reads a credentials file; errors name the file and the field (never a secret).
Result<AdcFile> readAdcFile(const std::string& path);

// GOOGLE_APPLICATION_CREDENTIALS, else gcloud's
// ~/.config/gcloud/application_default_credentials.json when it exists; empty: none.
std::string findAdcFile(const std::function<std::optional<std::string>(const char*)>& env);

class AccessTokenSource {
 public:
  using Clock = std::function<std::chrono::system_clock::time_point()>;
  struct Options {
    std::chrono::milliseconds connectTimeout{10'000};
    std::chrono::milliseconds readTimeout{30'000};
    Clock now;  // empty: the system clock
  };

  AccessTokenSource(AdcFile file, Options options);

  // A token valid for at least a minute more, fetched when needed.
  Result<std::string> token(const CancelToken& cancel);
  // The cached token was refused: fetch a new one next time.
  void invalidate();
  // A token already in hand (a login's cached one), used until `expires`.
  void seed(std::string token, std::chrono::system_clock::time_point expires);

 private:
  Result<std::string> fetch(const CancelToken& cancel);
  std::chrono::system_clock::time_point now() const;

  AdcFile file_;
  Options options_;
  std::mutex mutex_;
  std::string token_;
  std::chrono::system_clock::time_point expires_{};
};

}  // namespace lathe::engine::google
