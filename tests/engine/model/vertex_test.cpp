// Gemini on Vertex AI against local fakes of Google's token endpoint and the
// Vertex paths: the RS256 JWT-bearer grant of a service account, gcloud's
// refresh-token grant, tokens cached and renewed after a 401, express mode
// with an API key, and errors that name the credential and the fix.
#include <catch2/catch.hpp>

#include <httplib.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "engine/model/authenticated_provider.h"
#include "engine/model/google/access_tokens.h"
#include "engine/model/google/jwt_assertion.h"
#include "engine/model/provider_setup.h"
#include "protocol/base/json.h"
#include "tests/support/local_http_server.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::TempDir;

namespace {

std::string rsaKeyPem() {
  EVP_PKEY* key = EVP_RSA_gen(2048);
  REQUIRE(key);
  BIO* bio = BIO_new(BIO_s_mem());
  REQUIRE(PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr) == 1);
  char* data = nullptr;
  long size = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<size_t>(size));
  BIO_free(bio);
  EVP_PKEY_free(key);
  return pem;
}

std::string base64UrlDecode(std::string text) {
  for (char& c : text) {
    if (c == '-') c = '+';
    if (c == '_') c = '/';
  }
  while (text.size() % 4) text += '=';
  std::string out(text.size(), '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(text.data()),
                          static_cast<int>(text.size()));
  REQUIRE(n >= 0);
  size_t pad = text.size() - text.find_last_not_of('=') - 1;
  out.resize(static_cast<size_t>(n) - pad);
  return out;
}

bool verifyRs256(const std::string& jwt, const std::string& privatePem) {
  size_t dot = jwt.rfind('.');
  std::string input = jwt.substr(0, dot);
  std::string signature = base64UrlDecode(jwt.substr(dot + 1));
  BIO* bio = BIO_new_mem_buf(privatePem.data(), static_cast<int>(privatePem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  bool ok = EVP_DigestVerifyInit(context, nullptr, EVP_sha256(), nullptr, key) == 1 &&
            EVP_DigestVerify(context, reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                             reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
  EVP_MD_CTX_free(context);
  EVP_PKEY_free(key);
  return ok;
}

std::string formValue(const std::string& body, const std::string& name) {
  httplib::Params params;
  httplib::detail::parse_query_text(body, params);
  auto it = params.find(name);
  return it == params.end() ? "" : it->second;
}

// Google's token endpoint and Vertex AI's model paths on 127.0.0.1.
struct FakeGoogle {
  std::mutex mutex;
  std::vector<std::string> tokenBodies;
  std::vector<std::string> modelPaths;
  std::vector<std::string> authorizations;
  std::vector<std::string> apiKeys;
  int tokenStatus = 200;
  std::atomic<int> refuseModelCalls{0};  // answer this many model calls with 401
  // Last: stopped before the records its handlers write go.
  lathe::testing::LocalHttpServer http;
  httplib::Server& server = http.server;

  FakeGoogle() {
    server.Post("/token", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(mutex);
      tokenBodies.push_back(req.body);
      if (tokenStatus != 200) {
        res.status = tokenStatus;
        res.set_content(R"({"error":"invalid_grant","error_description":"Invalid JWT Signature."})", "application/json");
        return;
      }
      res.set_content(R"({"access_token":"tok-)" + std::to_string(tokenBodies.size()) +
                          R"(","expires_in":3600,"token_type":"Bearer"})",
                      "application/json");
    });
    server.Post(R"(/v1/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      {
        std::lock_guard lock(mutex);
        modelPaths.push_back(req.path);
        authorizations.push_back(req.get_header_value("Authorization"));
        apiKeys.push_back(req.get_header_value("x-goog-api-key"));
      }
      if (refuseModelCalls > 0) {
        --refuseModelCalls;
        res.status = 401;
        res.set_content(R"({"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}})",
                        "application/json");
        return;
      }
      res.set_content("data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"hi from vertex\"}]},"
                      "\"finishReason\":\"STOP\"}]}\r\n\r\n",
                      "text/event-stream");
    });
    REQUIRE(http.start());
  }
  std::string url() const { return http.url(); }
};

std::string serviceAccountFile(TempDir& dir, const FakeGoogle& google, const std::string& pem) {
  std::string text = json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "type", "service_account");
    json::put(w, "project_id", "p");
    json::put(w, "private_key_id", "kid-1");
    json::put(w, "private_key", pem);
    json::put(w, "client_email", "bot@p.iam.gserviceaccount.com");
    json::put(w, "token_uri", google.url() + "/token");
    w.EndObject();
  });
  return dir.write("sa.json", text).string();
}

Result<ModelReply> ask(ModelProvider& provider) {
  std::vector<Content> contents{Content{Role::user, {Part::makeText("hi")}}};
  ModelRequest request;
  request.model = "gemini-2.5-pro";
  request.contents = &contents;
  return provider.stream(request, {}, CancelToken());
}

ProviderOptions vertexOptions(const FakeGoogle& google, std::string adcPath) {
  ProviderOptions options;
  options.vertex = true;
  options.vertexSettings = VertexSettings{"p", "europe-west4", google.url(), "", std::move(adcPath)};
  options.maxAttempts = 1;
  return options;
}

}  // namespace

TEST_CASE("a service account's assertion is signed RS256 with the claims Google's token endpoint checks") {
  const std::string pem = rsaKeyPem();
  google::AssertionClaims claims{"bot@p.iam.gserviceaccount.com", "https://oauth2.googleapis.com/token",
                                 google::kCloudPlatformScope, "kid-1", std::chrono::system_clock::from_time_t(1'700'000'000)};
  auto jwt = google::signAssertion(claims, pem);
  REQUIRE(jwt);
  CHECK(verifyRs256(*jwt, pem));
  std::string tampered = *jwt;
  tampered[tampered.find('.') + 3] ^= 1;
  CHECK_FALSE(verifyRs256(tampered, pem));
  auto header = json::parse(base64UrlDecode(jwt->substr(0, jwt->find('.'))));
  REQUIRE(header);
  CHECK(json::getStr(*header, "alg") == "RS256");
  CHECK(json::getStr(*header, "kid") == "kid-1");
  size_t first = jwt->find('.');
  auto body = json::parse(base64UrlDecode(jwt->substr(first + 1, jwt->rfind('.') - first - 1)));
  REQUIRE(body);
  CHECK(json::getStr(*body, "iss") == "bot@p.iam.gserviceaccount.com");
  CHECK(json::getStr(*body, "aud") == "https://oauth2.googleapis.com/token");
  CHECK(json::getStr(*body, "scope") == google::kCloudPlatformScope);
  CHECK(json::getInt(*body, "iat") == 1'700'000'000);
  CHECK(json::getInt(*body, "exp") == 1'700'003'600);

  auto bad = google::signAssertion(claims, "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("not a PEM private key") != std::string::npos);
}

TEST_CASE("Vertex AI with a service account: the project's model path, a cached token, renewed once after a 401") {
  FakeGoogle google;
  TempDir dir;
  const std::string pem = rsaKeyPem();
  auto provider = makeProvider(vertexOptions(google, serviceAccountFile(dir, google, pem)));
  REQUIRE(provider);

  auto reply = ask(**provider);
  REQUIRE(reply);
  REQUIRE(google.tokenBodies.size() == 1);
  CHECK(formValue(google.tokenBodies[0], "grant_type") == "urn:ietf:params:oauth:grant-type:jwt-bearer");
  CHECK(verifyRs256(formValue(google.tokenBodies[0], "assertion"), pem));
  REQUIRE(google.modelPaths.size() == 1);
  CHECK(google.modelPaths[0] ==
        "/v1/projects/p/locations/europe-west4/publishers/google/models/gemini-2.5-pro:streamGenerateContent");
  CHECK(google.authorizations[0] == "Bearer tok-1");
  CHECK(google.apiKeys[0].empty());

  REQUIRE(ask(**provider));
  CHECK(google.tokenBodies.size() == 1);  // cached

  google.refuseModelCalls = 1;
  REQUIRE(ask(**provider));
  CHECK(google.tokenBodies.size() == 2);
  CHECK(google.authorizations.back() == "Bearer tok-2");

  google.refuseModelCalls = 2;  // a new token refused too: the person is told which credential and what to do
  auto refused = ask(**provider);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == Errc::auth_required);
  CHECK(refused.error().message.find("Vertex AI refused the service account bot@p.iam.gserviceaccount.com") !=
        std::string::npos);
  CHECK(refused.error().message.find("roles/aiplatform.user") != std::string::npos);
}

TEST_CASE("Vertex AI with gcloud's login: the refresh-token grant, and a refused grant names the login and the fix") {
  FakeGoogle google;
  TempDir dir;
  std::string adc = dir.write("adc.json", R"({"type":"authorized_user","client_id":"cid","client_secret":"cs",)"
                                          R"("refresh_token":"rt/1","token_uri":")" + google.url() + R"(/token"})")
                        .string();
  auto provider = makeProvider(vertexOptions(google, adc));
  REQUIRE(provider);
  REQUIRE(ask(**provider));
  REQUIRE(google.tokenBodies.size() == 1);
  CHECK(formValue(google.tokenBodies[0], "grant_type") == "refresh_token");
  CHECK(formValue(google.tokenBodies[0], "refresh_token") == "rt/1");
  CHECK(formValue(google.tokenBodies[0], "client_id") == "cid");

  google.tokenStatus = 400;
  auto fresh = makeProvider(vertexOptions(google, adc));
  REQUIRE(fresh);
  const size_t calls = google.modelPaths.size();
  auto refused = ask(**fresh);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == Errc::auth_required);
  CHECK(refused.error().message.find("the gcloud login in " + adc) != std::string::npos);
  CHECK(refused.error().message.find("Invalid JWT Signature.") != std::string::npos);
  CHECK(refused.error().message.find("gcloud auth application-default login") != std::string::npos);
  CHECK(google.modelPaths.size() == calls);  // no model request without a token
}

TEST_CASE("Vertex AI express mode uses GOOGLE_API_KEY on the publisher path, and without project or key nothing is sent") {
  FakeGoogle google;
  ProviderOptions options;
  options.vertex = true;
  options.vertexSettings = VertexSettings{"", "", google.url(), "express-key", ""};
  auto provider = makeProvider(options);
  REQUIRE(provider);
  REQUIRE(ask(**provider));
  REQUIRE(google.modelPaths.size() == 1);
  CHECK(google.modelPaths[0] == "/v1/publishers/google/models/gemini-2.5-pro:streamGenerateContent");
  CHECK(google.apiKeys[0] == "express-key");
  CHECK(google.authorizations[0].empty());

  options.vertexSettings = VertexSettings{"", "", google.url(), "", ""};
  auto unusable = makeProvider(options);
  REQUIRE(unusable);
  auto refused = ask(**unusable);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == Errc::auth_required);
  CHECK(refused.error().message.find("GOOGLE_CLOUD_PROJECT") != std::string::npos);
  options.vertexSettings = VertexSettings{"p", "", google.url(), "", ""};
  auto noAdc = ask(**makeProvider(options));
  REQUIRE_FALSE(noAdc);
  CHECK(noAdc.error().message.find("GOOGLE_APPLICATION_CREDENTIALS") != std::string::npos);
  CHECK(google.modelPaths.size() == 1);
}

TEST_CASE("the regional endpoint follows GOOGLE_CLOUD_LOCATION, and global has none") {
  TempDir dir;
  std::string adc = dir.write("adc.json", R"({"type":"authorized_user","client_id":"c","client_secret":"s","refresh_token":"r"})").string();
  auto regional = vertexEndpoint(VertexSettings{"p", "", "", "", adc});
  REQUIRE(regional);
  CHECK(regional->baseUrl == "https://us-central1-aiplatform.googleapis.com");
  CHECK(regional->modelsPath == "/v1/projects/p/locations/us-central1/publishers/google/models/");
  auto global = vertexEndpoint(VertexSettings{"p", "global", "", "", adc});
  REQUIRE(global);
  CHECK(global->baseUrl == "https://aiplatform.googleapis.com");
}

TEST_CASE("security.auth.selectedType chooses between Vertex AI and the Gemini API key") {
  FakeGoogle google;
  TempDir dir;
  ProviderOptions options;
  options.vertex = true;  // GOOGLE_GENAI_USE_VERTEXAI=true
  options.vertexSettings = VertexSettings{"", "", google.url(), "express-key", ""};
  options.baseUrl = google.url() + "/v1";  // the Gemini API's paths, on the same fake
  options.apiKey = "gemini-key";
  options.maxAttempts = 1;
  auto picked = AuthenticatedProvider::create(options, "gemini-api-key", CredentialStore((dir.path / "c.json").string()));
  REQUIRE(picked);
  (void)ask(**picked);  // the fake serves only /v1/...: the Gemini API path shows which was used
  REQUIRE(google.modelPaths.size() == 1);
  CHECK(google.modelPaths[0] == "/v1/v1beta/models/gemini-2.5-pro:streamGenerateContent");
  CHECK(google.apiKeys[0] == "gemini-key");

  auto vertex = AuthenticatedProvider::create(options, "vertex-ai", CredentialStore((dir.path / "d.json").string()));
  REQUIRE(vertex);
  REQUIRE(ask(**vertex));
  CHECK(google.modelPaths.back() == "/v1/publishers/google/models/gemini-2.5-pro:streamGenerateContent");
  CHECK(google.apiKeys.back() == "express-key");
}
