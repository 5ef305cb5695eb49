// The provider-neutral model seam: the pure retry policy, and one provider
// driving both stream() and generate() through the shared HTTP client against
// the fake Gemini server (retries included), with record and replay of both.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "engine/model/gemini/gemini_provider.h"
#include "engine/model/recording_provider.h"
#include "engine/model/replay_provider.h"
#include "protocol/http/retry_policy.h"
#include "tests/support/fake_gemini_server.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using std::chrono::milliseconds;

TEST_CASE("retry policy: backoff doubles with jitter, is capped, honours Retry-After and gives up") {
  http::RetryPolicy policy{4, milliseconds(1000), milliseconds(3000), milliseconds(60'000)};
  CHECK(http::decideRetry(policy, 1, true, std::nullopt, 1.0).delay == milliseconds(1000));
  CHECK(http::decideRetry(policy, 2, true, std::nullopt, 1.0).delay == milliseconds(2000));
  CHECK(http::decideRetry(policy, 2, true, std::nullopt, 0.75).delay == milliseconds(1500));
  CHECK(http::decideRetry(policy, 3, true, std::nullopt, 1.25).delay == milliseconds(3000));  // capped
  CHECK(http::decideRetry(policy, 1, true, milliseconds(7000), 1.0).delay == milliseconds(7000));
  auto tooLong = http::decideRetry(policy, 1, true, milliseconds(120'000), 1.0);
  CHECK_FALSE(tooLong.retry);
  CHECK_THAT(tooLong.note, Catch::Contains("120 seconds"));
  auto last = http::decideRetry(policy, 4, true, std::nullopt, 1.0);
  CHECK_FALSE(last.retry);
  CHECK_THAT(last.note, Catch::Contains("gave up after 4 attempts"));
  CHECK_FALSE(http::decideRetry(policy, 1, false, std::nullopt, 1.0).retry);
  CHECK(http::retryableStatus(429));
  CHECK(http::retryableStatus(503));
  CHECK_FALSE(http::retryableStatus(400));
}

namespace {

GeminiProvider::Options optionsFor(const testing::FakeGeminiServer& server, std::vector<milliseconds>& waits) {
  GeminiProvider::Options o;
  o.apiKey = "test-key";
  o.baseUrl = server.baseUrl();
  o.sleep = [&waits](milliseconds d, const CancelToken&) { waits.push_back(d); };
  return o;
}

std::string textOf(const ModelReply& reply) {
  std::string out;
  for (const Part& p : reply.content.parts) out += p.text.value_or("");
  return out;
}

}  // namespace

TEST_CASE("one provider streams and generates through the shared client, retrying 429 and 5xx") {
  testing::FakeGeminiServer server;
  REQUIRE(server.start().ok());
  server.push(testing::ScriptedReply::error(429, R"({"error":{"code":429,"message":"slow down"}})", "1"));
  server.push(testing::ScriptedReply::text("streamed"));
  server.push(testing::ScriptedReply::error(503, R"({"error":{"code":503,"message":"busy"}})"));
  server.push(testing::ScriptedReply::text("generated"));
  std::vector<milliseconds> waits;
  GeminiProvider provider(optionsFor(server, waits));
  std::vector<Content> history{{Role::user, {Part::makeText("hi")}}};
  ModelRequest request;
  request.model = "gemini-2.5-flash";
  request.contents = &history;

  int chunks = 0;
  auto streamed = provider.stream(request, [&](const ModelChunk&) { ++chunks; }, CancelToken());
  REQUIRE(streamed.ok());
  CHECK(textOf(*streamed) == "streamed");
  CHECK(chunks == 2);
  CHECK(streamed->finishReason == FinishReason::stop);

  auto generated = provider.generate(request, CancelToken());
  REQUIRE(generated.ok());
  CHECK(textOf(*generated) == "generated");

  REQUIRE(waits.size() == 2);
  CHECK(waits[0] == milliseconds(1000));  // Retry-After: 1
  auto requests = server.generateRequests();
  REQUIRE(requests.size() == 4);
  CHECK(requests[1].action == "streamGenerateContent");
  CHECK(requests[3].action == "generateContent");
  CHECK(requests[3].header("x-goog-api-key") == "test-key");
  CHECK(server.violations().empty());
}

TEST_CASE("record and replay work for streamed and generated replies") {
  testing::FakeGeminiServer server;
  REQUIRE(server.start().ok());
  server.push(testing::ScriptedReply::text("one"));
  server.push(testing::ScriptedReply::text("two"));
  testing::TempDir dir;
  std::string file = (dir.path / "rec.jsonl").string();
  std::vector<milliseconds> waits;
  auto live = std::make_shared<GeminiProvider>(optionsFor(server, waits));
  auto recorder = RecordingProvider::open(live, file);
  REQUIRE(recorder.ok());
  std::vector<Content> history{{Role::user, {Part::makeText("hi")}}};
  ModelRequest request;
  request.model = "gemini-2.5-flash";
  request.contents = &history;
  REQUIRE((*recorder)->stream(request, nullptr, CancelToken()).ok());
  REQUIRE((*recorder)->generate(request, CancelToken()).ok());

  auto replay = ReplayProvider::open(file);
  REQUIRE(replay.ok());
  auto first = (*replay)->stream(request, nullptr, CancelToken());
  REQUIRE(first.ok());
  CHECK(textOf(*first) == "one");
  auto second = (*replay)->generate(request, CancelToken());
  REQUIRE(second.ok());
  CHECK(textOf(*second) == "two");
  CHECK((*replay)->remaining() == 0);
}
