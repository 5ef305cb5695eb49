// Log in with Google against local fakes of Google's token endpoint and the
// Code Assist API: Gemini CLI's cached login (refresh token to access token,
// with Gemini CLI's client), the project found by loadCodeAssist or made by
// onboardUser, requests wrapped and replies unwrapped, a 401 renewing the
// token once, the setup's errors; and a fresh login by the loopback redirect
// (state, PKCE, the code exchanged, the tokens kept mode 600).
#include <catch2/catch.hpp>

#include <httplib.h>
#include <openssl/sha.h>
#include <sys/stat.h>

#include <future>
#include <thread>

#include "engine/model/authenticated_provider.h"
#include "engine/model/code_assist/code_assist_provider.h"
#include "engine/model/code_assist/code_assist_wire.h"
#include "engine/model/code_assist/project_setup.h"
#include "engine/model/google/cached_login.h"
#include "engine/model/google/jwt_assertion.h"
#include "engine/model/google/login_flow.h"
#include "engine/model/provider_setup.h"
#include "protocol/base/json.h"
#include "tests/support/fake_code_assist.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::FakeCodeAssist;
using lathe::testing::TempDir;

namespace {

json::Document parsed(const std::string& text) {
  auto doc = json::parse(text);
  REQUIRE(doc);
  return std::move(doc).value();
}

std::string str(const json::Value& v, const char* key) { return json::getStr(v, key).value_or("<absent>"); }

// Gemini CLI's login file, its access token long expired.
std::string writeLogin(const TempDir& home) {
  std::string path = (home.path / ".gemini/oauth_creds.json").string();
  google::CachedLogin login{"stale-access", "refresh-kept", "scope", "Bearer", "",
                            std::chrono::system_clock::time_point(std::chrono::milliseconds(1'000))};
  REQUIRE(google::writeCachedLogin(path, login));
  return path;
}

ProviderOptions googleOptions(const FakeCodeAssist& fake, const std::string& loginPath) {
  ProviderOptions options;
  options.googleLogin = true;
  options.google.loginPath = loginPath;
  options.google.endpoint = fake.endpoint();
  options.google.oauth.tokenUrl = fake.tokenUrl();
  options.google.oauth.authUrl = "https://accounts.invalid/auth";
  options.maxAttempts = 1;
  return options;
}

ModelRequest hello(std::vector<Content>& contents) {
  contents = {Content{Role::user, {Part::makeText("hello")}}};
  ModelRequest request;
  request.model = "gemini-2.5-pro";
  request.systemInstruction = "be brief";
  request.contents = &contents;
  return request;
}

std::string joinedText(const ModelReply& reply) {
  std::string out;
  for (const auto& part : reply.content.parts) out += part.text.value_or("");
  return out;
}

std::string queryValue(const std::string& url, const std::string& name) {
  httplib::Params params;
  httplib::detail::parse_query_text(url.substr(url.find('?') + 1), params);
  auto it = params.find(name);
  return it == params.end() ? "" : it->second;
}

}  // namespace

TEST_CASE("Log in with Google: Gemini CLI's cached login reaches Code Assist, the project found once") {
  FakeCodeAssist fake;
  TempDir home;
  auto provider = makeProvider(googleOptions(fake, writeLogin(home)));
  REQUIRE(provider);
  REQUIRE((*provider)->credentialsReady());
  std::vector<Content> contents;
  ModelRequest request = hello(contents);
  std::string streamed;
  auto reply = (*provider)->stream(request, [&](const ModelChunk& chunk) {
    for (const auto& part : chunk.parts) streamed += part.text.value_or("");
  }, CancelToken());
  INFO((reply ? "" : reply.error().message));
  REQUIRE(reply);
  CHECK(joinedText(*reply) == "Hello through Code Assist.");
  CHECK(streamed == "Hello through Code Assist.");
  REQUIRE(reply->usage);
  CHECK(reply->usage->totalTokens == 12);

  // The refresh-token grant with Gemini CLI's client.
  auto tokens = fake.requestsTo("/token");
  REQUIRE(tokens.size() == 1);
  CHECK(FakeCodeAssist::formValue(tokens[0].body, "grant_type") == "refresh_token");
  CHECK(FakeCodeAssist::formValue(tokens[0].body, "refresh_token") == "refresh-kept");
  CHECK(FakeCodeAssist::formValue(tokens[0].body, "client_id") == google::geminiCliClientId());

  auto loads = fake.requestsTo("/v1internal:loadCodeAssist");
  REQUIRE(loads.size() == 1);
  CHECK(loads[0].authorization == "Bearer access-1");
  auto load = parsed(loads[0].body);
  CHECK(str(*json::find(load, "metadata"), "pluginType") == "GEMINI");
  CHECK(str(*json::find(load, "metadata"), "ideType") == "IDE_UNSPECIFIED");

  auto streams = fake.requestsTo("/v1internal:streamGenerateContent");
  REQUIRE(streams.size() == 1);
  CHECK(streams[0].authorization == "Bearer access-1");
  auto body = parsed(streams[0].body);
  CHECK(str(body, "model") == "gemini-2.5-pro");
  CHECK(str(body, "project") == "fake-project");
  CHECK(str(body, "user_prompt_id") != "<absent>");
  const json::Value* inner = json::find(body, "request");
  REQUIRE(inner);
  CHECK(str(*inner, "session_id") != "<absent>");
  CHECK(str((*json::find(*inner, "contents"))[0]["parts"][0], "text") == "hello");
  CHECK(str((*json::find(*inner, "systemInstruction"))["parts"][0], "text") == "be brief");

  // Later calls reuse the token and the project.
  auto generated = (*provider)->generate(request, CancelToken());
  REQUIRE(generated);
  CHECK(joinedText(*generated) == "Hello through Code Assist.");
  auto counted = (*provider)->countTokens(request, CancelToken());
  REQUIRE(counted);
  REQUIRE(*counted);
  CHECK(**counted == 42);
  auto count = parsed(fake.requestsTo("/v1internal:countTokens").at(0).body);
  CHECK(str(*json::find(count, "request"), "model") == "models/gemini-2.5-pro");
  CHECK(fake.requestsTo("/v1internal:loadCodeAssist").size() == 1);
  CHECK(fake.requestsTo("/token").size() == 1);
}

TEST_CASE("Log in with Google: a refused token is renewed once, a refused refresh names the login and the fix") {
  FakeCodeAssist fake;
  TempDir home;
  const std::string path = writeLogin(home);
  auto provider = makeProvider(googleOptions(fake, path));
  REQUIRE(provider);
  std::vector<Content> contents;
  ModelRequest request = hello(contents);
  REQUIRE((*provider)->prepare(CancelToken()));
  fake.refuseModelCalls(1);
  auto reply = (*provider)->generate(request, CancelToken());
  INFO((reply ? "" : reply.error().message));
  REQUIRE(reply);
  CHECK(fake.requestsTo("/token").size() == 2);
  auto calls = fake.requestsTo("/v1internal:generateContent");
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].authorization == "Bearer access-1");
  CHECK(calls[1].authorization == "Bearer access-2");

  fake.refuseTokens(400);
  auto again = makeProvider(googleOptions(fake, path));
  REQUIRE(again);
  auto refused = (*again)->generate(request, CancelToken());
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == Errc::auth_required);
  CHECK_THAT(refused.error().message, Catch::Contains("your Google login in " + path) &&
                                          Catch::Contains("Token has been expired or revoked") &&
                                          Catch::Contains("log in with Google again"));
}

TEST_CASE("Log in with Google: a new account is onboarded to the default tier, polled until done") {
  FakeCodeAssist fake;
  fake.setLoad(R"({"allowedTiers":[{"id":"legacy-tier"},{"id":"free-tier","name":"Free","isDefault":true}]})");
  TempDir home;
  auto options = googleOptions(fake, writeLogin(home));
  auto login = google::readCachedLogin(options.google.loginPath);
  REQUIRE(login);
  REQUIRE(*login);
  auto provider = std::make_shared<CodeAssistProvider>(CodeAssistProvider::Options{
      .endpoint = options.google.endpoint,
      .tokens = google::loginTokens(options.google.loginPath, **login, options.google.oauth),
      .missingLoginHint = "",
      .loginPath = options.google.loginPath,
      .project = "my-own-project",
      .maxAttempts = 1,
      .sleep = [](std::chrono::milliseconds, const CancelToken&) {}});  // polls at once
  auto project = provider->project(CancelToken());
  INFO((project ? "" : project.error().message));
  REQUIRE(project);
  CHECK(*project == "onboarded-project");
  auto onboard = parsed(fake.requestsTo("/v1internal:onboardUser").at(0).body);
  CHECK(str(onboard, "tierId") == "free-tier");
  CHECK(str(onboard, "cloudaicompanionProject") == "<absent>");  // the free tier's project is Google's
  CHECK(fake.requestsTo("/v1internal/operations/op1").size() == 1);
}

TEST_CASE("Log in with Google: setup errors say what to do") {
  using code_assist::SetupCalls;
  auto calls = [](std::string load) {
    SetupCalls out;
    out.post = [load](const std::string& method, const std::string&, const CancelToken&) -> Result<std::string> {
      if (method == "loadCodeAssist") return load;
      return std::string(R"({"name":"operations/x","done":true,"response":{}})");
    };
    out.get = [](const std::string&, const CancelToken&) -> Result<std::string> { return std::string("{}"); };
    out.sleep = [](std::chrono::milliseconds, const CancelToken&) { return true; };
    return out;
  };
  auto needsProject = code_assist::setUpProject(calls(R"({"currentTier":{"id":"standard-tier"}})"), "", CancelToken());
  REQUIRE_FALSE(needsProject);
  CHECK_THAT(needsProject.error().message, Catch::Contains("GOOGLE_CLOUD_PROJECT"));
  auto named = code_assist::setUpProject(calls(R"({"currentTier":{"id":"standard-tier"}})"), "mine-1", CancelToken());
  REQUIRE(named);
  CHECK(*named == "mine-1");
  auto numeric = code_assist::setUpProject(calls("{}"), "123456", CancelToken());
  REQUIRE_FALSE(numeric);
  CHECK_THAT(numeric.error().message, Catch::Contains("project number"));
  auto verify = code_assist::setUpProject(
      calls(R"({"ineligibleTiers":[{"reasonCode":"VALIDATION_REQUIRED","reasonMessage":"Verify your account","validationUrl":"https://accounts.invalid/verify"}]})"),
      "", CancelToken());
  REQUIRE_FALSE(verify);
  CHECK_THAT(verify.error().message, Catch::Contains("https://accounts.invalid/verify") && Catch::Contains("Verify your account"));
  auto ineligible = code_assist::setUpProject(
      calls(R"({"allowedTiers":[{"id":"free-tier","isDefault":true}],"ineligibleTiers":[{"reasonCode":"INELIGIBLE_ACCOUNT","reasonMessage":"Not available in your country"}]})"),
      "", CancelToken());
  REQUIRE_FALSE(ineligible);
  CHECK_THAT(ineligible.error().message, Catch::Contains("Not available in your country"));
}

TEST_CASE("Log in with Google: without a login, or with a file others can read, no request is made") {
  FakeCodeAssist fake;
  TempDir home;
  const std::string path = (home.path / ".gemini/oauth_creds.json").string();
  auto provider = makeProvider(googleOptions(fake, path));
  REQUIRE(provider);
  auto ready = (*provider)->credentialsReady();
  REQUIRE_FALSE(ready);
  CHECK(ready.error().code == Errc::auth_required);
  CHECK_THAT(ready.error().message, Catch::Contains("not logged in") && Catch::Contains(path));
  writeLogin(home);
  ::chmod(path.c_str(), 0644);
  auto open = makeProvider(googleOptions(fake, path));
  REQUIRE(open);
  auto refused = (*open)->credentialsReady();
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("other users"));
  CHECK(fake.requests().empty());
}

TEST_CASE("Log in with Google afresh: the loopback redirect with state and PKCE, the tokens kept mode 600") {
  FakeCodeAssist fake;
  TempDir home;
  google::LoginFlowOptions options;
  options.endpoints = {"https://accounts.invalid/o/oauth2/v2/auth", fake.tokenUrl()};
  options.loginPath = (home.path / ".gemini/oauth_creds.json").string();
  std::promise<std::string> shown;
  auto login = std::async(std::launch::async, [&] {
    return google::logInWithGoogle(options, [&](const std::string& url) { shown.set_value(url); }, CancelToken());
  });
  const std::string url = shown.get_future().get();
  CHECK(url.starts_with("https://accounts.invalid/o/oauth2/v2/auth?"));
  CHECK(queryValue(url, "client_id") == google::geminiCliClientId());
  CHECK(queryValue(url, "access_type") == "offline");
  CHECK(queryValue(url, "code_challenge_method") == "S256");
  CHECK_THAT(queryValue(url, "scope"), Catch::Contains("https://www.googleapis.com/auth/cloud-platform"));
  const std::string redirect = queryValue(url, "redirect_uri");
  REQUIRE(redirect.starts_with("http://127.0.0.1:"));
  REQUIRE(redirect.ends_with("/oauth2callback"));
  const std::string origin = redirect.substr(0, redirect.find('/', 7));

  httplib::Client browser(origin);
  auto stranger = browser.Get("/oauth2callback?code=evil&state=wrong");  // not the state Lathe sent: ignored
  REQUIRE(stranger);
  CHECK(stranger->status == 400);
  auto back = browser.Get("/oauth2callback?code=the-code&state=" + httplib::detail::encode_query_param(queryValue(url, "state")));
  REQUIRE(back);
  CHECK(back->status == 200);
  CHECK_THAT(back->body, Catch::Contains("logged in"));
  auto result = login.get();
  INFO((result ? "" : result.error().message));
  REQUIRE(result);
  CHECK(result->refreshToken == "refresh-fresh");

  auto tokens = fake.requestsTo("/token");
  REQUIRE(tokens.size() == 1);
  const std::string& form = tokens[0].body;
  CHECK(FakeCodeAssist::formValue(form, "grant_type") == "authorization_code");
  CHECK(FakeCodeAssist::formValue(form, "code") == "the-code");
  CHECK(FakeCodeAssist::formValue(form, "redirect_uri") == redirect);
  const std::string verifier = FakeCodeAssist::formValue(form, "code_verifier");
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), digest);
  CHECK(google::base64Url(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest)) ==
        queryValue(url, "code_challenge"));

  struct stat st{};
  REQUIRE(::stat(options.loginPath.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  auto kept = google::readCachedLogin(options.loginPath);
  REQUIRE(kept);
  REQUIRE(*kept);
  CHECK((*kept)->refreshToken == "refresh-fresh");
  CHECK((*kept)->accessToken == "access-1");
}

TEST_CASE("Log in with Google afresh: a refusal from Google, or a cancel, ends the wait with nothing kept") {
  TempDir home;
  google::LoginFlowOptions options;
  options.endpoints = {"https://accounts.invalid/auth", "http://127.0.0.1:9/token"};
  options.loginPath = (home.path / "oauth_creds.json").string();
  SECTION("Google says access_denied") {
    std::promise<std::string> shown;
    auto login = std::async(std::launch::async, [&] {
      return google::logInWithGoogle(options, [&](const std::string& url) { shown.set_value(url); }, CancelToken());
    });
    const std::string url = shown.get_future().get();
    const std::string redirect = queryValue(url, "redirect_uri");
    httplib::Client browser(redirect.substr(0, redirect.find('/', 7)));
    REQUIRE(browser.Get("/oauth2callback?error=access_denied&state=" +
                        httplib::detail::encode_query_param(queryValue(url, "state"))));
    auto result = login.get();
    REQUIRE_FALSE(result);
    CHECK_THAT(result.error().message, Catch::Contains("access_denied"));
  }
  SECTION("the person declines in the editor") {
    CancelToken cancel = CancelToken::create();
    auto result = google::logInWithGoogle(options, [&](const std::string&) { cancel.cancel(); }, cancel);
    REQUIRE_FALSE(result);
    CHECK(result.error().code == Errc::cancelled);
  }
  CHECK_FALSE(std::filesystem::exists(options.loginPath));
}
