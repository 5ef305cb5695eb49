// oauth_creds.json: {access_token, refresh_token, scope, token_type, id_token, expiry_date}.
#include "engine/model/google/cached_login.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "protocol/base/json.h"
#include "protocol/base/private_file.h"

namespace lathe::engine::google {

const std::string& geminiCliClientId() {
  static const std::string id = "681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com";
  return id;
}

const std::string& geminiCliClientSecret() {
  static const std::string secret = "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";
  return secret;
}

const std::string& loginScopes() {
  static const std::string scopes =
      "https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/userinfo.email "
      "https://www.googleapis.com/auth/userinfo.profile";
  return scopes;
}

OAuthEndpoints oauthEndpointsFrom(const std::function<std::optional<std::string>(const char*)>& env) {
  OAuthEndpoints out;
  if (auto url = env("LATHE_GOOGLE_AUTH_URL")) out.authUrl = *url;
  if (auto url = env("LATHE_GOOGLE_TOKEN_URL")) out.tokenUrl = *url;
  return out;
}

std::string cachedLoginPath(const std::string& geminiDir) {
  return geminiDir.empty() ? std::string() : geminiDir + "/oauth_creds.json";
}

Result<std::optional<CachedLogin>> readCachedLogin(const std::string& path) {
  if (path.empty()) return std::optional<CachedLogin>{};
  std::ifstream in(path);
  if (!in) return std::optional<CachedLogin>{};
  struct stat st{};
  // Open to others means someone else may have written it: not trusted.
  if (::stat(path.c_str(), &st) == 0 && (st.st_mode & 077) != 0) {
    return makeError(Errc::auth_required, "your Google login " + path +
                                              " can be read or written by other users; remove it and log in with "
                                              "Google again");
  }
  std::stringstream text;
  text << in.rdbuf();
  auto doc = json::parse(text.str());
  if (!doc || !doc->IsObject()) {
    return makeError(Errc::auth_required, "your Google login " + path + " is damaged; log in with Google again");
  }
  CachedLogin out;
  auto field = [&](const char* name) { return json::getStr(*doc, name).value_or(""); };
  out.accessToken = field("access_token");
  out.refreshToken = field("refresh_token");
  out.scope = field("scope");
  if (auto type = field("token_type"); !type.empty()) out.tokenType = type;
  out.idToken = field("id_token");
  if (const json::Value* expiry = json::find(*doc, "expiry_date"); expiry && expiry->IsNumber()) {
    out.expiry = std::chrono::system_clock::time_point(std::chrono::milliseconds(static_cast<int64_t>(expiry->GetDouble())));
  }
  if (out.refreshToken.empty()) {
    return makeError(Errc::auth_required, "your Google login " + path + " has no refresh_token; log in with Google again");
  }
  return std::optional<CachedLogin>(std::move(out));
}

Status writeCachedLogin(const std::string& path, const CachedLogin& login) {
  if (path.empty()) return makeError(Errc::internal, "there is no home folder to keep the Google login in");
  std::error_code ec;
  const auto dir = std::filesystem::path(path).parent_path();
  std::filesystem::create_directories(dir, ec);
  if (ec) return makeError(Errc::internal, "cannot create " + dir.string() + ": " + ec.message());
  std::string text = json::buildObject([&](json::Writer& w) {
    json::put(w, "access_token", login.accessToken);
    json::put(w, "refresh_token", login.refreshToken);
    if (!login.scope.empty()) json::put(w, "scope", login.scope);
    json::put(w, "token_type", login.tokenType);
    if (!login.idToken.empty()) json::put(w, "id_token", login.idToken);
    if (login.expiry) {
      json::put(w, "expiry_date",
                std::chrono::duration_cast<std::chrono::milliseconds>(login.expiry->time_since_epoch()).count());
    }
  });
  return writePrivateFile(path, text + "\n");
}

Status removeCachedLogin(const std::string& path) {
  if (path.empty()) return {};
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return makeError(Errc::internal, "cannot remove " + path + ": " + std::strerror(errno));
  }
  return {};
}

std::shared_ptr<AccessTokenSource> loginTokens(const std::string& path, const CachedLogin& login,
                                               const OAuthEndpoints& endpoints, AccessTokenSource::Options options) {
  AdcFile file;
  file.type = AdcFile::Type::googleLogin;
  file.path = path;
  file.tokenUri = endpoints.tokenUrl;
  file.clientId = geminiCliClientId();
  file.clientSecret = geminiCliClientSecret();
  file.refreshToken = login.refreshToken;
  auto tokens = std::make_shared<AccessTokenSource>(std::move(file), std::move(options));
  if (!login.accessToken.empty() && login.expiry) tokens->seed(login.accessToken, *login.expiry);
  return tokens;
}

}  // namespace lathe::engine::google
