// GeminiProvider's retries against a local server: Retry-After, backoff,
// limits, connection failures.
#include <catch2/catch.hpp>

#include <httplib.h>

#include <atomic>
#include <future>
#include <thread>

#include "tests/engine/model/gemini_provider_fixture.h"

using namespace lathe;
using namespace lathe::engine;
using namespace lathe::testing::gemini_fixture;
using std::chrono::milliseconds;
using namespace std::chrono_literals;

TEST_CASE("provider: 429 with Retry-After waits as asked, then succeeds", "[gemini_provider]") {
  LocalServer server([](int n, const httplib::Request&, httplib::Response& res) {
    if (n == 1) {
      res.status = 429;
      res.set_header("Retry-After", "2");
      res.set_content(R"({"error":{"code":429,"message":"Resource exhausted.","status":"RESOURCE_EXHAUSTED"}})",
                      "application/json");
      return;
    }
    res.set_content(sse({finalChunk("ok")}), "text/event-stream");
  });
  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url(), log));
  auto reply = provider.stream(request(), nullptr, CancelToken());
  REQUIRE(reply.ok());
  CHECK(joinedText(*reply) == "ok");
  CHECK(server.count() == 2);
  CHECK(log->get() == std::vector<milliseconds>{2000ms});
}

TEST_CASE("provider: Retry-After as an HTTP date and RetryInfo in the body", "[gemini_provider]") {
  auto log = std::make_shared<SleepLog>();
  SECTION("HTTP date") {
    LocalServer server([](int n, const httplib::Request&, httplib::Response& res) {
      if (n == 1) {
        std::time_t at = std::time(nullptr) + 20;
        char date[64];
        std::tm tm{};
        gmtime_r(&at, &tm);
        std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
        res.status = 503;
        res.set_header("Retry-After", date);
        return;
      }
      res.set_content(sse({finalChunk("ok")}), "text/event-stream");
    });
    GeminiProvider provider(options(server.url(), log));
    REQUIRE(provider.stream(request(), nullptr, CancelToken()).ok());
    auto delays = log->get();
    REQUIRE(delays.size() == 1);
    CHECK(delays[0] > 15s);
    CHECK(delays[0] <= 20s);
  }
  SECTION("RetryInfo") {
    LocalServer server([](int n, const httplib::Request&, httplib::Response& res) {
      if (n == 1) {
        res.status = 429;
        res.set_content(R"({"error":{"code":429,"message":"Quota.","status":"RESOURCE_EXHAUSTED","details":[
            {"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"7s"}]}})",
                        "application/json");
        return;
      }
      res.set_content(sse({finalChunk("ok")}), "text/event-stream");
    });
    GeminiProvider provider(options(server.url(), log));
    REQUIRE(provider.stream(request(), nullptr, CancelToken()).ok());
    CHECK(log->get() == std::vector<milliseconds>{7000ms});
  }
}

TEST_CASE("provider: a Retry-After beyond the limit ends the call", "[gemini_provider]") {
  LocalServer server([](int, const httplib::Request&, httplib::Response& res) {
    res.status = 429;
    res.set_header("Retry-After", "3600");
    res.set_content(R"({"error":{"code":429,"message":"Daily quota exceeded.","status":"RESOURCE_EXHAUSTED"}})",
                    "application/json");
  });
  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url(), log));
  auto reply = provider.stream(request(), nullptr, CancelToken());
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().code == Errc::http);
  CHECK(reply.error().message ==
        "Gemini API error 429 (RESOURCE_EXHAUSTED): Daily quota exceeded. (the API asks to wait 3600 seconds before "
        "trying again)");
  CHECK(server.count() == 1);
  CHECK(log->get().empty());
}

TEST_CASE("provider: 500 twice, then success, with exponential backoff", "[gemini_provider]") {
  LocalServer server([](int n, const httplib::Request&, httplib::Response& res) {
    if (n <= 2) {
      res.status = 500;
      res.set_content(R"({"error":{"code":500,"message":"Internal error.","status":"INTERNAL"}})", "application/json");
      return;
    }
    res.set_content(sse({textChunk("third "), finalChunk("time")}), "text/event-stream");
  });
  auto log = std::make_shared<SleepLog>();
  auto o = options(server.url(), log);
  o.initialBackoff = 1000ms;
  GeminiProvider provider(o);
  int chunks = 0;
  auto reply = provider.stream(request(), [&](const ModelChunk&) { ++chunks; }, CancelToken());
  REQUIRE(reply.ok());
  CHECK(joinedText(*reply) == "third time");
  CHECK(chunks == 2);
  CHECK(server.count() == 3);
  auto delays = log->get();
  REQUIRE(delays.size() == 2);
  CHECK(delays[0] >= 750ms);
  CHECK(delays[0] <= 1250ms);
  CHECK(delays[1] >= 1500ms);
  CHECK(delays[1] <= 2500ms);
}

TEST_CASE("provider: backoff is capped at maxBackoff and gives up after maxAttempts", "[gemini_provider]") {
  LocalServer server([](int, const httplib::Request&, httplib::Response& res) {
    res.status = 503;
    res.set_content(R"({"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}})",
                    "application/json");
  });
  auto log = std::make_shared<SleepLog>();
  auto o = options(server.url(), log);
  o.maxAttempts = 4;
  o.initialBackoff = 1000ms;
  o.maxBackoff = 1500ms;
  GeminiProvider provider(o);
  auto reply = provider.stream(request(), nullptr, CancelToken());
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().code == Errc::http);
  CHECK(reply.error().message ==
        "Gemini API error 503 (UNAVAILABLE): The model is overloaded. (gave up after 4 attempts)");
  CHECK(server.count() == 4);
  auto delays = log->get();
  REQUIRE(delays.size() == 3);
  for (auto d : delays) CHECK(d <= 1500ms);
}

TEST_CASE("provider: a connection failure names the URL and is retried", "[gemini_provider]") {
  auto log = std::make_shared<SleepLog>();
  std::string url = "http://127.0.0.1:" + std::to_string(freePort());
  auto o = options(url, log);
  o.maxAttempts = 3;
  GeminiProvider provider(o);
  auto reply = provider.stream(request(), nullptr, CancelToken());
  REQUIRE_FALSE(reply.ok());
  CHECK_THAT(reply.error().message,
             Catch::StartsWith("Could not reach the Gemini API at " + url +
                               "/v1beta/models/gemini-2.5-flash:streamGenerateContent: could not connect"));
  CHECK_THAT(reply.error().message, Catch::Contains("httplib: ") && Catch::Contains("gave up after 3 attempts"));
  CHECK(log->get().size() == 2);
}

