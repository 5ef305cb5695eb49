// Tests for GeminiProvider against a real cpp-httplib server on 127.0.0.1:
// streaming, long pauses, error messages, cancellation, kept-alive connections.
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

TEST_CASE("provider: streams chunks in order as they arrive", "[gemini_provider]") {
  std::atomic<bool> continuedAfterClientSawFirst{false};
  LocalServer* self = nullptr;
  LocalServer server([&](int, const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("text/event-stream", [&](size_t, httplib::DataSink& sink) {
      std::string first = sse({textChunk("Hel")});
      sink.write(first.data(), first.size());
      // Wait until the client has handed the first chunk on: it must not buffer.
      continuedAfterClientSawFirst = self->gate.wait(10s);
      std::string rest = sse({textChunk("lo, "), finalChunk("world")});
      sink.write(rest.data(), rest.size());
      sink.done();
      return true;
    });
  });
  self = &server;

  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url(), log));
  std::vector<std::string> texts;
  auto reply = provider.stream(
      request(),
      [&](const ModelChunk& chunk) {
        REQUIRE(chunk.parts.size() == 1);
        texts.push_back(*chunk.parts[0].text);
        server.gate.release();
      },
      CancelToken());

  REQUIRE(reply.ok());
  CHECK(continuedAfterClientSawFirst);
  CHECK(texts == std::vector<std::string>{"Hel", "lo, ", "world"});
  REQUIRE(reply->content.parts.size() == 1);
  CHECK(joinedText(*reply) == "Hello, world");
  CHECK(reply->content.role == Role::model);
  CHECK(reply->finishReason == FinishReason::stop);
  REQUIRE(reply->usage);
  CHECK(reply->usage->totalTokens == 13);

  auto seen = server.seen();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].path == "/v1beta/models/gemini-2.5-flash:streamGenerateContent");
  CHECK(seen[0].alt == "sse");
  CHECK(seen[0].apiKey == "test-key");
  CHECK(seen[0].contentType == "application/json");
  auto body = json::parse(seen[0].body);
  REQUIRE(body.ok());
  const auto& text = (*body)["contents"][0]["parts"][0]["text"];
  REQUIRE(text.IsString());
  CHECK(std::string(text.GetString()) == "say hello");
  CHECK(log->get().empty());
}

TEST_CASE("provider: a 5.5 s pause mid-stream does not cut the stream", "[gemini_provider][slow]") {
  LocalServer server([](int, const httplib::Request&, httplib::Response& res) {
    streamPieces(res, {sse({textChunk("before ")}), sse({finalChunk("after")})}, 5500ms);
  });
  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url(), log));
  int chunks = 0;
  auto reply = provider.stream(request(), [&](const ModelChunk&) { ++chunks; }, CancelToken());
  REQUIRE(reply.ok());
  CHECK(chunks == 2);
  CHECK(joinedText(*reply) == "before after");
  CHECK(server.count() == 1);
  CHECK(log->get().empty());
}

TEST_CASE("provider: silence longer than readTimeout ends the stream with a timeout", "[gemini_provider]") {
  LocalServer server([](int, const httplib::Request&, httplib::Response& res) {
    streamPieces(res, {sse({textChunk("first")}), sse({finalChunk("late")})}, 2500ms);
  });
  auto log = std::make_shared<SleepLog>();
  auto o = options(server.url(), log);
  o.readTimeout = 1000ms;
  GeminiProvider provider(o);
  int chunks = 0;
  auto reply = provider.stream(request(), [&](const ModelChunk&) { ++chunks; }, CancelToken());
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().code == Errc::timeout);
  CHECK_THAT(reply.error().message, Catch::Contains("broke off: no data arrived for 1 second"));
  CHECK(chunks == 1);
  CHECK(server.count() == 1);  // chunks were delivered: no retry
}

TEST_CASE("provider: a server that accepts and stays silent is given one read timeout, not five", "[gemini_provider]") {
  LocalServer* self = nullptr;
  LocalServer server([&](int, const httplib::Request&, httplib::Response& res) {
    self->gate.wait(5000ms);  // says nothing until the test ends
    res.set_content("{}", "application/json");
  });
  self = &server;
  auto log = std::make_shared<SleepLog>();
  auto o = options(server.url(), log);
  o.readTimeout = 1000ms;
  GeminiProvider provider(o);
  auto reply = provider.stream(request(), nullptr, CancelToken());
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().code == Errc::timeout);
  CHECK_THAT(reply.error().message, Catch::Contains("sent nothing for 1 second in all"));
  CHECK(server.count() == 1);
  CHECK(log->get().empty());
}
TEST_CASE("provider: a 400 is surfaced as a sentence and not retried", "[gemini_provider]") {
  SECTION("invalid argument") {
    LocalServer server([](int, const httplib::Request&, httplib::Response& res) {
      res.status = 400;
      res.set_content(R"([{"error":{"code":400,"message":"Invalid JSON payload received.","status":"INVALID_ARGUMENT"}}])",
                      "application/json");
    });
    auto log = std::make_shared<SleepLog>();
    GeminiProvider provider(options(server.url(), log));
    auto reply = provider.stream(request(), nullptr, CancelToken());
    REQUIRE_FALSE(reply.ok());
    CHECK(reply.error().code == Errc::http);
    CHECK(reply.error().message == "Gemini API error 400 (INVALID_ARGUMENT): Invalid JSON payload received.");
    CHECK(server.count() == 1);
    CHECK(log->get().empty());
  }
  SECTION("a bad API key asks for authentication") {
    LocalServer server([](int, const httplib::Request&, httplib::Response& res) {
      res.status = 400;
      res.set_content(R"({"error":{"code":400,"message":"API key not valid. Please pass a valid API key.",
          "status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo",
          "reason":"API_KEY_INVALID","domain":"googleapis.com"}]}})",
                      "application/json");
    });
    auto log = std::make_shared<SleepLog>();
    GeminiProvider provider(options(server.url(), log));
    auto reply = provider.stream(request(), nullptr, CancelToken());
    REQUIRE_FALSE(reply.ok());
    CHECK(reply.error().code == Errc::auth_required);
    CHECK_THAT(reply.error().message,
               Catch::StartsWith("Gemini API error 400 (INVALID_ARGUMENT): API key not valid. Please pass a valid API key."));
    CHECK_THAT(reply.error().message, Catch::Contains("GEMINI_API_KEY"));
    CHECK(server.count() == 1);
    CHECK(log->get().empty());
  }
}

TEST_CASE("provider: a missing API key sends nothing", "[gemini_provider]") {
  LocalServer server([](int, const httplib::Request&, httplib::Response& res) { res.set_content("", "text/plain"); });
  auto log = std::make_shared<SleepLog>();
  auto o = options(server.url(), log);
  o.apiKey.clear();
  GeminiProvider provider(o);
  auto reply = provider.stream(request(), nullptr, CancelToken());
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().code == Errc::auth_required);
  CHECK_THAT(reply.error().message, Catch::Contains("set GEMINI_API_KEY"));
  CHECK(server.count() == 0);
}
TEST_CASE("provider: a bad base URL is a clear error", "[gemini_provider]") {
  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options("ftp://example.invalid", log));
  auto reply = provider.stream(request(), nullptr, CancelToken());
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().code == Errc::invalid_params);
  CHECK_THAT(reply.error().message, Catch::Contains("GOOGLE_GEMINI_BASE_URL"));
}

TEST_CASE("provider: a base URL path prefix is kept", "[gemini_provider]") {
  LocalServer server(
      [](int, const httplib::Request&, httplib::Response& res) {
        res.set_content(sse({finalChunk("via proxy")}), "text/event-stream");
      },
      R"(/proxy/v1beta/models/[^/]+:streamGenerateContent)");
  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url() + "/proxy/", log));
  auto reply = provider.stream(request(), nullptr, CancelToken());
  REQUIRE(reply.ok());
  CHECK(joinedText(*reply) == "via proxy");
  REQUIRE(server.count() == 1);
  CHECK(server.seen()[0].path == "/proxy/v1beta/models/gemini-2.5-flash:streamGenerateContent");
}

TEST_CASE("provider: a stream that breaks after a chunk is not retried", "[gemini_provider]") {
  LocalServer server([](int, const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("text/event-stream", [](size_t, httplib::DataSink& sink) {
      std::string first = sse({textChunk("partial")});
      sink.write(first.data(), first.size());
      return false;  // drop the connection without the terminating chunk
    });
  });
  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url(), log));
  int chunks = 0;
  auto reply = provider.stream(request(), [&](const ModelChunk&) { ++chunks; }, CancelToken());
  REQUIRE_FALSE(reply.ok());
  CHECK(chunks == 1);
  CHECK_THAT(reply.error().message, Catch::Contains("broke off"));
  CHECK(server.count() == 1);
  CHECK(log->get().empty());
}

TEST_CASE("provider: an error event inside the stream", "[gemini_provider]") {
  LocalServer server([](int, const httplib::Request&, httplib::Response& res) {
    res.set_content(sse({textChunk("so far"), R"({"error":{"code":400,"message":"Bad part.","status":"INVALID_ARGUMENT"}})"}),
                    "text/event-stream");
  });
  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url(), log));
  auto reply = provider.stream(request(), nullptr, CancelToken());
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().code == Errc::model);
  CHECK(reply.error().message == "Gemini API error 400 (INVALID_ARGUMENT): Bad part.");
  CHECK(server.count() == 1);
}

TEST_CASE("provider: an empty stream is retried, then reported", "[gemini_provider]") {
  LocalServer server([](int n, const httplib::Request&, httplib::Response& res) {
    if (n == 1) {
      res.set_content(": nothing but a comment\n\n", "text/event-stream");
      return;
    }
    res.set_content(sse({finalChunk("second try")}), "text/event-stream");
  });
  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url(), log));
  auto reply = provider.stream(request(), nullptr, CancelToken());
  REQUIRE(reply.ok());
  CHECK(joinedText(*reply) == "second try");
  CHECK(server.count() == 2);
  CHECK(log->get().size() == 1);
}

TEST_CASE("provider: a 200 reply that is not an event stream is not retried", "[gemini_provider]") {
  LocalServer server([](int, const httplib::Request&, httplib::Response& res) {
    res.set_content(R"([{"candidates":[{"content":{"parts":[{"text":"hi"}]}}]}])", "application/json");
  });
  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url(), log));
  auto reply = provider.stream(request(), nullptr, CancelToken());
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().code == Errc::model);
  CHECK_THAT(reply.error().message, Catch::Contains("did not reply with server-sent events; it began: [{\"candidates\""));
  CHECK(server.count() == 1);
  CHECK(log->get().empty());
}

TEST_CASE("provider: cancelling mid-stream returns cancelled promptly", "[gemini_provider]") {
  LocalServer* self = nullptr;
  LocalServer server([&](int, const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("text/event-stream", [&](size_t, httplib::DataSink& sink) {
      std::string first = sse({textChunk("started")});
      sink.write(first.data(), first.size());
      self->gate.wait(60s);  // hold the stream open until teardown
      return false;
    });
  });
  self = &server;

  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url(), log));
  CancelToken cancel = CancelToken::create();
  std::promise<void> firstChunk;
  std::chrono::steady_clock::time_point cancelledAt;
  const pid_t streaming = ::gettid();
  bool readingAgain = false;
  std::thread canceller([&] {
    firstChunk.get_future().wait();
    // The client is back waiting for bytes (not in a lock or a timer).
    readingAgain = testing::waitUntilBlocked(streaming, [](long call) { return call != SYS_futex; });
    cancelledAt = std::chrono::steady_clock::now();
    cancel.cancel();
  });
  int chunks = 0;
  auto reply = provider.stream(
      request(),
      [&](const ModelChunk&) {
        if (++chunks == 1) firstChunk.set_value();
      },
      cancel);
  auto returnedAt = std::chrono::steady_clock::now();
  canceller.join();

  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().code == Errc::cancelled);
  CHECK(chunks == 1);
  CHECK(readingAgain);
  CHECK(returnedAt - cancelledAt < 10s);  // the server would have held the stream for 60 s
  CHECK(server.count() == 1);
}

TEST_CASE("provider: cancelling interrupts the backoff wait", "[gemini_provider]") {
  LocalServer server([](int, const httplib::Request&, httplib::Response& res) {
    res.status = 503;
    res.set_content(R"({"error":{"code":503,"message":"Busy.","status":"UNAVAILABLE"}})", "application/json");
  });
  GeminiProvider::Options o;
  o.apiKey = "k";
  o.baseUrl = server.url();
  o.initialBackoff = 60s;  // the real, cancellable sleep
  o.maxBackoff = 60s;
  GeminiProvider provider(o);
  CancelToken cancel = CancelToken::create();
  const pid_t streaming = ::gettid();
  bool backingOff = false;
  std::thread canceller([&] {
    // Answered, then the client sleeps out the backoff on a condition variable.
    backingOff = server.waitForAnswers(1) &&
                 testing::waitUntilBlocked(streaming, [](long call) { return call == SYS_futex; });
    cancel.cancel();
  });
  auto started = std::chrono::steady_clock::now();
  auto reply = provider.stream(request(), nullptr, cancel);
  auto elapsed = std::chrono::steady_clock::now() - started;
  canceller.join();
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().code == Errc::cancelled);
  CHECK(backingOff);
  CHECK(elapsed < 20s);
  CHECK(server.count() == 1);
}

TEST_CASE("provider: an already cancelled token sends nothing", "[gemini_provider]") {
  LocalServer server([](int, const httplib::Request&, httplib::Response& res) {
    res.set_content(sse({finalChunk("x")}), "text/event-stream");
  });
  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url(), log));
  CancelToken cancel = CancelToken::create();
  cancel.cancel();
  auto reply = provider.stream(request(), nullptr, cancel);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().code == Errc::cancelled);
  CHECK(server.count() == 0);
}

TEST_CASE("provider: sequential requests share one kept-alive connection", "[gemini_provider][keepalive]") {
  LocalServer server([](int, const httplib::Request&, httplib::Response& res) {
    res.set_content(sse({finalChunk("ok")}), "text/event-stream");
  });
  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url(), log));
  for (int i = 0; i < 3; ++i) REQUIRE(provider.stream(request(), nullptr, CancelToken()).ok());
  auto seen = server.seen();
  REQUIRE(seen.size() == 3);
  CHECK(seen[1].remotePort == seen[0].remotePort);
  CHECK(seen[2].remotePort == seen[0].remotePort);
  CHECK(log->get().empty());
}

TEST_CASE("provider: a kept-alive connection the server closed is replaced at once, not retried later",
          "[gemini_provider][keepalive]") {
  LocalServer server([](int, const httplib::Request&, httplib::Response& res) {
    res.set_content(sse({finalChunk("ok")}), "text/event-stream");
  });
  server.raw().set_keep_alive_timeout(0);  // closes each connection after its answer, without saying so
  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url(), log));
  for (int i = 0; i < 3; ++i) {
    auto reply = provider.stream(request(), nullptr, CancelToken());
    INFO(i << ": " << (reply.ok() ? std::string("ok") : reply.error().message));
    REQUIRE(reply.ok());
  }
  CHECK(server.count() == 3);
  CHECK(log->get().empty());  // no backoff: nothing counted as a failed attempt
}

TEST_CASE("provider: a cancelled request's connection is not reused", "[gemini_provider][keepalive]") {
  LocalServer server([](int n, const httplib::Request&, httplib::Response& res) {
    if (n == 1) {
      streamPieces(res, {sse({textChunk("first")}), sse({finalChunk("never")})}, 1500ms);
    } else {
      res.set_content(sse({finalChunk("ok")}), "text/event-stream");
    }
  });
  auto log = std::make_shared<SleepLog>();
  GeminiProvider provider(options(server.url(), log));
  CancelToken cancel = CancelToken::create();
  auto reply = provider.stream(request(), [&](const ModelChunk&) { cancel.cancel(); }, cancel);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().code == Errc::cancelled);
  REQUIRE(provider.stream(request(), nullptr, CancelToken()).ok());
  auto seen = server.seen();
  REQUIRE(seen.size() == 2);
  CHECK(seen[1].remotePort != seen[0].remotePort);
}

