// End-to-end tests of the web tools through the real binary and ACP: web_fetch
// asks (kind fetch, showing the URL), fetches from a local site the settings
// allow, answers through one model call, and the model gets the answer;
// google_web_search runs unasked and the model gets citation markers and
// sources; web_fetch through an https:// proxy. Each conversation is
// validated against the ACP v1 schema.
#include "tests/e2e/e2e_support.h"
#include "tests/support/test_certificates.h"
#include "tests/support/test_proxy.h"
#include "tests/support/web_test_server.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

std::string argsWith(const char* key, const std::string& value) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, key, value);
    w.EndObject();
  });
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("e2e: web_fetch asks with the URL, fetches the allowed local page and answers through the model", "[e2e][web]") {
  TempDir ws;
  WebTestServer site;
  REQUIRE(site.start());
  fs::path settings = ws.path / "settings.json";
  writeFile(settings, R"({"tools": {"webFetch": {"allowPrivateHosts": ["127.0.0.1"]}}})");
  auto fake = startFake();
  std::string url = site.url("/page.html");
  fake->push(ScriptedReply::functionCall("web_fetch", argsWith("prompt", "Summarise " + url)));
  fake->push(ScriptedReply::text("Summary: lathe is fast."));  // the one-shot call over the page
  fake->push(ScriptedReply::text("Done."));
  LatheOptions options;
  options.extraArgs = {"--settings", settings.string()};
  auto lathe = startLathe(*fake, options);
  {
    AcpTestClient client(*lathe);
    client.initialize();
    std::string session = client.newSession(ws.str());
    auto outcome = client.prompt(session, "summarise the page");
    CHECK(outcome.stopReason == "end_turn");

    auto asks = permissionRequests(client);
    REQUIRE(asks.size() == 1);
    const json::Value& toolCall = (*asks[0])["params"]["toolCall"];
    CHECK(json::getStr(toolCall, "kind").value_or("") == "fetch");
    std::string shown = json::stringify(toolCall);
    CHECK(has(shown, url));
    auto updates = ofKind(outcome.updates, "tool_call_update");
    REQUIRE_FALSE(updates.empty());
    CHECK(field(updates.back(), "status") == "completed");

    auto requests = fake->generateRequests();
    REQUIRE(requests.size() == 3);
    CHECK(requests[1].action == "generateContent");
    CHECK(has(requests[1].body, "| lathe | fast |"));
    auto responses = lastFunctionResponses(requests[2].body);
    REQUIRE(responses.size() == 1);
    std::string output = responseField(responses[0].responseJson, "output");
    CHECK(has(output, "Summary: lathe is fast."));
    CHECK(has(output, "Sources:\n[1] " + url));
    CHECK(site.paths() == std::vector<std::string>{"/page.html"});
    checkAgainstSchema(client);
  }
  finish(*lathe);
}

TEST_CASE("e2e: google_web_search runs unasked and the model gets citation markers and sources", "[e2e][web]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("google_web_search", argsWith("query", "lathe release")));
  fake->push(ScriptedReply::stream({Chunk(R"({"candidates":[{"content":{"role":"model","parts":[{"text":"Lathe 2.0 is out."}]},
    "finishReason":"STOP","groundingMetadata":{"groundingChunks":[{"web":{"uri":"https://a.test/1","title":"a.test"}}],
    "groundingSupports":[{"segment":{"endIndex":17},"groundingChunkIndices":[0]}]}}]})")}));
  fake->push(ScriptedReply::text("It is out."));
  auto lathe = startLathe(*fake);
  {
    AcpTestClient client(*lathe);
    client.initialize();
    std::string session = client.newSession(ws.str());
    auto outcome = client.prompt(session, "is lathe 2.0 out?");
    CHECK(outcome.stopReason == "end_turn");
    CHECK(permissionRequests(client).empty());
    auto requests = fake->generateRequests();
    REQUIRE(requests.size() == 3);
    CHECK(has(requests[0].body, "\"google_web_search\""));  // declared for Gemini
    CHECK(has(requests[1].body, "googleSearch"));
    auto responses = lastFunctionResponses(requests[2].body);
    REQUIRE(responses.size() == 1);
    CHECK(responseField(responses[0].responseJson, "output") ==
          "Web search results for \"lathe release\":\n\nLathe 2.0 is out.[1]\n\nSources:\n[1] a.test (https://a.test/1)");
    checkAgainstSchema(client);
  }
  finish(*lathe);
}

TEST_CASE("e2e: web_fetch goes through an https:// proxy by name, and its address rules still apply to the target", "[e2e][web]") {
  TempDir ws;
  WebTestServer site;
  REQUIRE(site.start());
  TestProxy proxy({.routes = {{"docs.invalid", "127.0.0.1:" + std::to_string(site.port())}}, .tls = true});
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("web_fetch", argsWith("prompt", "Summarise http://docs.invalid/page.html")));
  fake->push(ScriptedReply::text("Summary: lathe is fast."));
  fake->push(ScriptedReply::functionCall("web_fetch", argsWith("prompt", "Read http://docs.invalid/to-metadata")));
  fake->push(ScriptedReply::text("Done."));
  auto lathe = startLathe(*fake, {.extraArgs = {"--yolo"}},
                          {{"HTTP_PROXY", proxy.url()}, {"SSL_CERT_FILE", testCertificates().caFile}});
  {
    AcpTestClient client(*lathe);
    client.initialize();
    std::string session = client.newSession(ws.str());
    auto outcome = client.prompt(session, "summarise the page");
    INFO("lathe stderr:\n" << lathe->stderrText());
    CHECK(outcome.stopReason == "end_turn");
    auto requests = fake->generateRequests();
    REQUIRE(requests.size() == 4);
    CHECK(has(requests[1].body, "| lathe | fast |"));  // the page, through the proxy
    auto refused = lastFunctionResponses(requests[3].body);
    REQUIRE(refused.size() == 1);
    CHECK(has(refused[0].responseJson, "169.254.169.254"));
    CHECK(has(refused[0].responseJson, "tools.webFetch.allowPrivateHosts"));
    CHECK(proxy.requestLines() ==
          std::vector<std::string>{"GET http://docs.invalid:80/page.html", "GET http://docs.invalid:80/to-metadata"});
    CHECK(proxy.tlsHandshakes() == 2);
    CHECK(site.paths() == std::vector<std::string>{"/page.html", "/to-metadata"});
    checkAgainstSchema(client);
  }
  finish(*lathe);
}
