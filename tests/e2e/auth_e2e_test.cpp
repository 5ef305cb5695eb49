// Logging in from the editor: the auth methods Lathe offers, a prompt without
// credentials failing with auth-required (-32000) before any model request, a
// Gemini API key given in authenticate's _meta (kept mode 600 for the next
// run), a gateway's URL and headers, logout, and settings'
// security.auth.selectedType.
#include <sys/stat.h>

#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

// No key in the environment: only what the editor gives.
const std::vector<std::pair<std::string, std::string>> kNoKey = {{"GEMINI_API_KEY", ""}};

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

    std::string sid = client.newSession(ws.str());
    REQUIRE_FALSE(sid.empty());
    PromptOutcome refused = client.prompt(sid, "hello");
    REQUIRE(refused.error);
    CHECK(errorCode(refused.response) == -32000);
    CHECK_THAT(*refused.error, Catch::Contains("Gemini API key"));
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
  writeFile(home.path / ".gemini/settings.json", R"({"security": {"auth": {"selectedType": "oauth-personal"}}})");
  auto fake = startFake();
  auto agent = startLathe(*fake, {}, {{"GEMINI_API_KEY", ""}, {"HOME", home.str()}});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  PromptOutcome refused = client.prompt(sid, "hello");
  REQUIRE(refused.error);
  CHECK(errorCode(refused.response) == -32000);
  CHECK_THAT(*refused.error, Catch::Contains("Log in with Google") && Catch::Contains("security.auth.selectedType"));
  CHECK(fake->generateRequests().empty());
  finish(*agent);
}
