// Logging in from the editor: the auth methods Lathe offers, session/new (and
// a prompt after logout) without credentials failing with auth-required
// (-32000) before any model request, a
// Gemini API key given in authenticate's _meta (kept mode 600 for the next
// run), a gateway's URL and headers, logout, and settings'
// security.auth.selectedType.
#include <sys/stat.h>

#include <httplib.h>

#include "tests/e2e/e2e_support.h"
#include "tests/support/fake_code_assist.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

// No key in the environment: only what the editor gives.
const std::vector<std::pair<std::string, std::string>> kNoKey = {{"GEMINI_API_KEY", ""}};

// session/new's params for a workspace.
std::string newSessionParams(const TempDir& ws) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "cwd", ws.str());
    json::key(w, "mcpServers");
    w.StartArray();
    w.EndArray();
    w.EndObject();
  });
}

std::vector<std::string> methodIds(const Message& initialized) {
  std::vector<std::string> ids;
  const json::Value* result = member(*initialized, "result");
  REQUIRE(result);
  const json::Value* methods = member(*result, "authMethods");
  REQUIRE(methods);
  for (const auto& method : methods->GetArray()) ids.push_back(json::getStr(method, "id").value_or(""));
  return ids;
}

// The conversation's requests (a session title is asked for with generateContent).
std::vector<RecordedRequest> turnRequests(const FakeGeminiServer& fake) {
  std::vector<RecordedRequest> out;
  for (auto& request : fake.generateRequests()) {
    if (request.action == "streamGenerateContent") out.push_back(std::move(request));
  }
  return out;
}

}  // namespace

TEST_CASE("e2e: a Gemini API key from the editor is used, kept only for the person, and forgotten on logout", "[e2e]") {
  TempDir ws;
  TempDir state;
  auto fake = startFake();
  const fs::path stored = state.path / "lathe/auth/credentials.json";
  {
    auto agent = startLathe(*fake, {.stateHome = state.str()}, kNoKey);
    AcpTestClient client(*agent);
    Message initialized = client.initialize();
    CHECK(methodIds(initialized) == std::vector<std::string>{"gemini-api-key", "vertex-ai", "gateway"});
    const json::Value* caps = member(*member(*initialized, "result"), "agentCapabilities");
    REQUIRE(caps);
    REQUIRE(member(*caps, "auth"));
    CHECK(member(*member(*caps, "auth"), "logout"));

    Message refused = client.call("session/new", newSessionParams(ws));
    CHECK(errorCode(refused) == -32000);
    CHECK_THAT(errorMessage(refused), Catch::Contains("Gemini API key"));
    CHECK(fake->generateRequests().empty());  // no model request without credentials

    Message bad = client.call("authenticate", R"({"methodId":"oauth-personal"})");
    CHECK(errorCode(bad) == -32602);
    Message empty = client.call("authenticate", R"({"methodId":"gemini-api-key"})");
    CHECK(errorCode(empty) == -32000);
    CHECK_FALSE(fs::exists(stored));

    Message ok = client.call("authenticate", R"({"methodId":"gemini-api-key","_meta":{"api-key":"editor-key-1"}})");
    INFO("lathe stderr:\n" << agent->stderrText());
    REQUIRE(member(*ok, "result"));
    struct stat st{};
    REQUIRE(::stat(stored.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);

    std::string sid = client.newSession(ws.str());
    REQUIRE_FALSE(sid.empty());
    fake->push(ScriptedReply::text("Hello."));
    PromptOutcome answered = client.prompt(sid, "hello again");
    INFO(answered.error.value_or(""));
    REQUIRE_FALSE(answered.error);
    auto requests = turnRequests(*fake);
    REQUIRE(requests.size() == 1);
    CHECK(requests[0].header("x-goog-api-key") == "editor-key-1");
    finish(*agent);
  }
  {
    // The next run uses the kept key without asking; logout forgets it.
    auto agent = startLathe(*fake, {.stateHome = state.str()}, kNoKey);
    AcpTestClient client(*agent);
    REQUIRE(client.initialize());
    std::string sid = client.newSession(ws.str());
    fake->push(ScriptedReply::text("Yes."));
    PromptOutcome answered = client.prompt(sid, "remembered?");
    INFO("lathe stderr:\n" << agent->stderrText());
    REQUIRE_FALSE(answered.error);
    CHECK(turnRequests(*fake).back().header("x-goog-api-key") == "editor-key-1");

    REQUIRE(member(*client.call("logout", "{}"), "result"));
    CHECK_FALSE(fs::exists(stored));
    const size_t before = fake->generateRequests().size();
    PromptOutcome refused = client.prompt(sid, "still there?");
    REQUIRE(refused.error);
    CHECK(errorCode(refused.response) == -32000);
    CHECK(fake->generateRequests().size() == before);
    CHECK(errorCode(client.call("session/new", newSessionParams(ws))) == -32000);
    finish(*agent);
  }
}

TEST_CASE("e2e: a gateway from the editor gets its headers and no key", "[e2e]") {
  TempDir ws;
  TempDir state;
  FakeGeminiOptions keyless;
  keyless.requireApiKey = false;  // the gateway's own header authenticates
  auto fake = startFake(keyless);
  auto agent = startLathe(*fake, {.stateHome = state.str()}, {{"GEMINI_API_KEY", ""}, {"GOOGLE_GEMINI_BASE_URL", ""}});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  CHECK(errorCode(client.call("session/new", newSessionParams(ws))) == -32000);
  Message missing = client.call("authenticate", R"({"methodId":"gateway"})");
  CHECK(errorCode(missing) == -32602);
  CHECK_THAT(errorMessage(missing), Catch::Contains("base URL"));
  std::string params = R"({"methodId":"gateway","_meta":{"gateway":{"baseUrl":")" + fake->baseUrl() +
                       R"(","headers":{"Authorization":"Bearer gw-token"}}}})";
  Message ok = client.call("authenticate", params);
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(member(*ok, "result"));
  std::string sid = client.newSession(ws.str());
  fake->push(ScriptedReply::text("Through."));
  PromptOutcome answered = client.prompt(sid, "through the gateway");
  INFO(answered.error.value_or(""));
  REQUIRE_FALSE(answered.error);
  auto requests = turnRequests(*fake);
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].header("authorization") == "Bearer gw-token");
  CHECK_FALSE(requests[0].header("x-goog-api-key"));
  finish(*agent);
}

TEST_CASE("e2e: settings that select a login Lathe cannot do say so in the auth-required error", "[e2e]") {
  TempDir ws;
  TempDir home;
  writeFile(home.path / ".gemini/settings.json", R"({"security": {"auth": {"selectedType": "cloud-shell"}}})");
  auto fake = startFake();
  auto agent = startLathe(*fake, {}, {{"GEMINI_API_KEY", ""}, {"HOME", home.str()}});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  Message refused = client.call("session/new", newSessionParams(ws));
  CHECK(errorCode(refused) == -32000);
  CHECK_THAT(errorMessage(refused), Catch::Contains("cloud-shell") && Catch::Contains("security.auth.selectedType"));
  CHECK(fake->generateRequests().empty());
  finish(*agent);
}

namespace {

// Lathe for Log in with Google: HOME holds (or will hold) ~/.gemini, Google's
// token endpoint and Code Assist are the local fake.
std::unique_ptr<Subprocess> startForGoogle(const FakeGeminiServer& fake, const FakeCodeAssist& google, const TempDir& home,
                                           const TempDir& state) {
  return startLathe(fake, {.stateHome = state.str()},
                    {{"GEMINI_API_KEY", ""}, {"HOME", home.str()}, {"CODE_ASSIST_ENDPOINT", google.endpoint()},
                     {"LATHE_GOOGLE_TOKEN_URL", google.tokenUrl()},
                     {"LATHE_GOOGLE_AUTH_URL", "https://accounts.invalid/o/oauth2/v2/auth"}});
}

std::string queryValue(const std::string& url, const std::string& name) {
  httplib::Params params;
  httplib::detail::parse_query_text(url.substr(url.find('?') + 1), params);
  auto it = params.find(name);
  return it == params.end() ? "" : it->second;
}

}  // namespace

TEST_CASE("e2e: Gemini CLI's Google login is used as it is: the session opens, the prompt goes to Code Assist", "[e2e]") {
  TempDir ws;
  TempDir home;
  TempDir state;
  writeFile(home.path / ".gemini/settings.json", R"({"security": {"auth": {"selectedType": "oauth-personal"}}})");
  const fs::path login = home.path / ".gemini/oauth_creds.json";
  writeFile(login, R"({"access_token":"old","refresh_token":"gemini-cli-refresh","token_type":"Bearer","expiry_date":1000})");
  fs::permissions(login, fs::perms::owner_read | fs::perms::owner_write);
  auto fake = startFake();
  FakeCodeAssist google;
  auto agent = startForGoogle(*fake, google, home, state);
  AcpTestClient client(*agent);
  Message initialized = client.initialize();
  CHECK(methodIds(initialized).front() == "oauth-personal");  // offered: a login is kept
  std::string sid = client.newSession(ws.str());
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE_FALSE(sid.empty());
  PromptOutcome answered = client.prompt(sid, "hello Google");
  INFO(answered.error.value_or(""));
  REQUIRE_FALSE(answered.error);
  CHECK(answered.stopReason == "end_turn");
  bool shown = false;
  for (const auto& update : answered.updates) shown = shown || chunkText(update) == "Hello through Code Assist.";
  CHECK(shown);
  auto refresh = google.requestsTo("/token");
  REQUIRE_FALSE(refresh.empty());
  CHECK(FakeCodeAssist::formValue(refresh[0].body, "refresh_token") == "gemini-cli-refresh");
  auto turns = google.requestsTo("/v1internal:streamGenerateContent");
  REQUIRE(turns.size() == 1);
  CHECK(turns[0].authorization == "Bearer access-1");
  CHECK_THAT(turns[0].body, Catch::Contains("\"project\":\"fake-project\"") && Catch::Contains("hello Google"));
  CHECK(turnRequests(*fake).empty());  // nothing went to the Gemini API
  checkAgainstSchema(client);
  finish(*agent);
}

TEST_CASE("e2e: Log in with Google from the editor: the login page as a URL elicitation, the tokens kept, logout", "[e2e]") {
  TempDir ws;
  TempDir home;
  TempDir state;
  auto fake = startFake();
  FakeCodeAssist google;
  auto agent = startForGoogle(*fake, google, home, state);
  AcpTestClient client(*agent);
  SECTION("an editor that cannot show a page is not offered the login") {
    CHECK(methodIds(client.initialize()) == std::vector<std::string>{"gemini-api-key", "vertex-ai", "gateway"});
    CHECK(errorCode(client.call("authenticate", R"({"methodId":"oauth-personal"})")) == -32602);
  }
  SECTION("an editor that shows pages logs in") {
    Message initialized = client.call("initialize", R"({"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"elicitation":{"url":{}}}})");
    REQUIRE(methodIds(initialized).front() == "oauth-personal");
    Message refused = client.call("session/new", newSessionParams(ws));
    CHECK(errorCode(refused) == -32000);
    CHECK_THAT(errorMessage(refused), Catch::Contains("Gemini API key"));

    client.setHandler("elicitation/create", [](const std::string&, const json::Value&) {
      return HandlerReply::result(R"({"action":"accept"})");
    });
    const int64_t id = client.request("authenticate", R"({"methodId":"oauth-personal"})");
    Message asked = client.waitFor([](const json::Value& m) { return json::getStr(m, "method").value_or("") == "elicitation/create"; });
    REQUIRE(asked);
    const json::Value& params = *member(*asked, "params");
    CHECK(json::getStr(params, "mode") == "url");
    CHECK(json::find(params, "requestId")->GetInt64() == id);
    const std::string url = json::getStr(params, "url").value_or("");
    CHECK(url.starts_with("https://accounts.invalid/o/oauth2/v2/auth?"));
    // The browser: Google sends it back to Lathe's loopback address with a code.
    const std::string redirect = queryValue(url, "redirect_uri");
    httplib::Client browser(redirect.substr(0, redirect.find('/', 7)));
    auto back = browser.Get("/oauth2callback?code=from-google&state=" + httplib::detail::encode_query_param(queryValue(url, "state")));
    REQUIRE(back);
    CHECK(back->status == 200);
    Message done = client.waitResponse(id);
    INFO("lathe stderr:\n" << agent->stderrText());
    REQUIRE(done);
    REQUIRE(member(*done, "result"));
    Message complete = client.waitFor([](const json::Value& m) { return json::getStr(m, "method").value_or("") == "elicitation/complete"; });
    REQUIRE(complete);
    CHECK(json::getStr(*member(*complete, "params"), "elicitationId") == json::getStr(params, "elicitationId"));

    const fs::path login = home.path / ".gemini/oauth_creds.json";
    REQUIRE(fs::exists(login));
    CHECK((fs::status(login).permissions() & (fs::perms::group_all | fs::perms::others_all)) == fs::perms::none);
    CHECK(FakeCodeAssist::formValue(google.requestsTo("/token").at(0).body, "code") == "from-google");

    std::string sid = client.newSession(ws.str());
    REQUIRE_FALSE(sid.empty());
    PromptOutcome answered = client.prompt(sid, "after the login");
    INFO(answered.error.value_or(""));
    REQUIRE_FALSE(answered.error);
    CHECK(google.requestsTo("/v1internal:streamGenerateContent").at(0).authorization == "Bearer access-1");

    REQUIRE(member(*client.call("logout", "{}"), "result"));
    CHECK_FALSE(fs::exists(login));
    CHECK(errorCode(client.call("session/new", newSessionParams(ws))) == -32000);
    checkAgainstSchema(client);
  }
  SECTION("declining the page ends the login") {
    client.call("initialize", R"({"protocolVersion":1,"clientCapabilities":{"elicitation":{"url":{}}}})");
    client.setHandler("elicitation/create", [](const std::string&, const json::Value&) {
      return HandlerReply::result(R"({"action":"decline"})");
    });
    Message declined = client.call("authenticate", R"({"methodId":"oauth-personal"})");
    CHECK(errorCode(declined) == -32800);
    CHECK_FALSE(fs::exists(home.path / ".gemini/oauth_creds.json"));
  }
  finish(*agent);
}
