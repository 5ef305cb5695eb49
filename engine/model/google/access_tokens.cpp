// ADC files and the token endpoint.
#include "engine/model/google/access_tokens.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/model/google/jwt_assertion.h"
#include "protocol/base/json.h"
#include "protocol/http/exchange.h"

namespace lathe::engine::google {
namespace {

constexpr auto kEarly = std::chrono::seconds(60);  // a token this close to expiry is renewed

std::string describeAccount(const AdcFile& file) {
  switch (file.type) {
    case AdcFile::Type::serviceAccount: return "the service account " + file.clientEmail + " (" + file.path + ")";
    case AdcFile::Type::authorizedUser: return "the gcloud login in " + file.path;
    case AdcFile::Type::googleLogin: return "your Google login in " + file.path;
  }
  return file.path;
}

std::string fixFor(const AdcFile& file) {
  switch (file.type) {
    case AdcFile::Type::serviceAccount:
      return "check GOOGLE_APPLICATION_CREDENTIALS names a current key of an enabled service account";
    case AdcFile::Type::authorizedUser: return "run `gcloud auth application-default login` again";
    case AdcFile::Type::googleLogin: return "log in with Google again from your editor";
  }
  return "";
}

}  // namespace

std::string formEncode(std::string_view text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

Result<TokenGrant> requestToken(const std::string& tokenUrl, const std::string& form, const std::string& who,
                                const std::string& fix, const TokenTimeouts& timeouts, const CancelToken& cancel) {
  http::RawRequest request;
  request.url = tokenUrl;
  request.headers = {{"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "application/json"}};
  request.connectTimeout = timeouts.connectTimeout;
  request.readTimeout = timeouts.readTimeout;
  request.body = form;
  int status = 0;
  std::string body;
  auto head = http::exchange(
      request, [&](const http::ResponseHead& h) { status = h.status; return true; },
      [&](std::string_view piece) {
        body.append(piece);
        return body.size() < 1024 * 1024;
      },
      cancel);
  if (!head) {
    if (head.error().code == Errc::cancelled) return head.error();
    return makeError(Errc::http, "cannot reach the token endpoint " + tokenUrl + " for " + who + ": " + head.error().message);
  }
  auto doc = json::parse(body);
  const bool object = doc && doc->IsObject();
  if (status != 200) {
    std::string why = object ? json::getStr(*doc, "error_description").value_or(json::getStr(*doc, "error").value_or("")) : "";
    return makeError(Errc::auth_required, "The token endpoint " + tokenUrl + " refused " + who + " (HTTP " +
                                              std::to_string(status) + (why.empty() ? "" : ": " + why) + "): " + fix + ".");
  }
  TokenGrant grant;
  auto field = [&](const char* name) { return object ? json::getStr(*doc, name).value_or("") : std::string(); };
  grant.accessToken = field("access_token");
  if (grant.accessToken.empty()) return makeError(Errc::auth_required, "The token endpoint " + tokenUrl + " sent no access_token");
  grant.refreshToken = field("refresh_token");
  grant.scope = field("scope");
  grant.tokenType = field("token_type");
  grant.idToken = field("id_token");
  const json::Value* lifetime = json::find(*doc, "expires_in");
  if (lifetime && lifetime->IsNumber()) grant.expiresIn = std::chrono::seconds(static_cast<int64_t>(lifetime->GetDouble()));
  return grant;
}

Result<AdcFile> readAdcFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return makeError(Errc::auth_required, "cannot read the Google credentials file " + path);
  std::stringstream text;
  text << in.rdbuf();
  auto doc = json::parse(text.str());
  if (!doc || !doc->IsObject()) return makeError(Errc::auth_required, "the Google credentials file " + path + " is not a JSON object");
  AdcFile file;
  file.path = path;
  auto field = [&](const char* name) { return json::getStr(*doc, name).value_or(""); };
  std::string type = field("type");
  if (auto uri = field("token_uri"); !uri.empty()) file.tokenUri = uri;
  auto need = [&](const char* name, std::string& into) -> Status {
    into = field(name);
    if (into.empty()) return makeError(Errc::auth_required, path + ": " + name + " is missing");
    return {};
  };
  if (type == "service_account") {
    file.type = AdcFile::Type::serviceAccount;
    if (auto s = need("client_email", file.clientEmail); !s) return s.error();
    if (auto s = need("private_key", file.privateKey); !s) return s.error();
    file.privateKeyId = field("private_key_id");
  } else if (type == "authorized_user") {
    file.type = AdcFile::Type::authorizedUser;
    if (auto s = need("client_id", file.clientId); !s) return s.error();
    if (auto s = need("client_secret", file.clientSecret); !s) return s.error();
    if (auto s = need("refresh_token", file.refreshToken); !s) return s.error();
  } else {
    return makeError(Errc::auth_required, path + ": type \"" + type +
                                              "\" is not one Lathe reads (service_account or authorized_user)");
  }
  return file;
}

std::string findAdcFile(const std::function<std::optional<std::string>(const char*)>& env) {
  if (auto named = env("GOOGLE_APPLICATION_CREDENTIALS")) return *named;
  std::string config;
  if (auto dir = env("CLOUDSDK_CONFIG")) {
    config = *dir;
  } else if (auto home = env("HOME")) {
    config = *home + "/.config/gcloud";
  } else {
    return "";
  }
  std::string gcloud = config + "/application_default_credentials.json";
  std::error_code ec;
  return std::filesystem::exists(gcloud, ec) ? gcloud : "";
}

AccessTokenSource::AccessTokenSource(AdcFile file, Options options) : file_(std::move(file)), options_(std::move(options)) {}

std::chrono::system_clock::time_point AccessTokenSource::now() const {
  return options_.now ? options_.now() : std::chrono::system_clock::now();
}

Result<std::string> AccessTokenSource::token(const CancelToken& cancel) {
  std::lock_guard lock(mutex_);
  if (!token_.empty() && now() + kEarly < expires_) return token_;
  return fetch(cancel);
}

void AccessTokenSource::invalidate() {
  std::lock_guard lock(mutex_);
  token_.clear();
}

void AccessTokenSource::seed(std::string token, std::chrono::system_clock::time_point expires) {
  std::lock_guard lock(mutex_);
  token_ = std::move(token);
  expires_ = expires;
}

Result<std::string> AccessTokenSource::fetch(const CancelToken& cancel) {
  std::string form;
  if (file_.type == AdcFile::Type::serviceAccount) {
    AssertionClaims claims{file_.clientEmail, file_.tokenUri, kCloudPlatformScope, file_.privateKeyId, now()};
    auto assertion = signAssertion(claims, file_.privateKey);
    if (!assertion) return makeError(Errc::auth_required, file_.path + ": " + assertion.error().message);
    form = "grant_type=" + formEncode("urn:ietf:params:oauth:grant-type:jwt-bearer") + "&assertion=" + formEncode(*assertion);
  } else {
    form = "grant_type=refresh_token&client_id=" + formEncode(file_.clientId) + "&client_secret=" +
           formEncode(file_.clientSecret) + "&refresh_token=" + formEncode(file_.refreshToken);
  }
  auto grant = requestToken(file_.tokenUri, form, describeAccount(file_), fixFor(file_),
                            {options_.connectTimeout, options_.readTimeout}, cancel);
  if (!grant) return grant.error();
  token_ = grant->accessToken;
  expires_ = now() + grant->expiresIn;
  return token_;
}

}  // namespace lathe::engine::google
