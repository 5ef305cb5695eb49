// Prices, the usage meter and the effort mapping: pure functions and a
// counter, no model involved.
#include <catch2/catch.hpp>

#include "engine/model/generation_settings.h"
#include "engine/model/openai/openai_wire.h"
#include "engine/model/pricing.h"
#include "engine/model/usage_meter.h"

using namespace lathe;
using namespace lathe::engine;

TEST_CASE("prices: the longest matching name wins, the person's table before the built-in one", "[pricing]") {
  auto lite = priceOf("gemini-2.5-flash-lite-preview-09-2025", {});
  REQUIRE(lite);
  CHECK(lite->input == 0.10);  // not gemini-2.5-flash's
  auto pro = priceOf("models/gemini-2.5-pro", {});
  REQUIRE(pro);
  CHECK(pro->output == 10.0);
  CHECK(priceOf("gpt-4o-mini", {})->input == 0.15);
  CHECK_FALSE(priceOf("qwen2.5-coder", {}));
  PriceTable mine{{"gemini", {9.0, 9.0, std::nullopt}}, {"qwen", {0.0, 0.0, std::nullopt}}};
  CHECK(priceOf("gemini-2.5-pro", mine)->input == 9.0);  // any match of theirs beats a built-in one
  CHECK(priceOf("qwen2.5-coder", mine)->output == 0.0);
}

TEST_CASE("cost: cached prompt tokens at their price, thoughts as output", "[pricing]") {
  Usage usage;
  usage.promptTokens = 1'000'000;
  usage.cachedTokens = 400'000;
  usage.candidatesTokens = 100'000;
  usage.thoughtsTokens = 100'000;
  CHECK(costOf(usage, Price{1.0, 10.0, 0.25}) == Approx(0.6 + 0.1 + 2.0));
  CHECK(costOf(usage, Price{1.0, 10.0, std::nullopt}) == Approx(1.0 + 2.0));  // no cache price: as input
}

TEST_CASE("the meter adds up every reply, and one of no known price makes the cost unknown", "[pricing]") {
  UsageMeter meter({{"known", {1.0, 1.0, std::nullopt}}});
  CHECK(meter.cost() == 0.0);
  CHECK_FALSE(meter.takeSinceLast());
  meter.add("known-1", Usage{1000, 0, 0, 1000});
  meter.add("known-2", Usage{1000, 500, 0, 1500});
  CHECK(*meter.cost() == Approx(0.0025));
  auto since = meter.takeSinceLast();
  REQUIRE(since);
  CHECK(since->promptTokens == 2000);
  CHECK(since->totalTokens == 2500);
  CHECK_FALSE(meter.takeSinceLast());
  meter.add("mystery", Usage{10, 10, 0, 20});
  CHECK_FALSE(meter.cost());
  meter.restore(1.5);  // a reopened session's record
  CHECK(*meter.cost() == 1.5);
  meter.restore(std::nullopt);
  CHECK_FALSE(meter.cost());
}

TEST_CASE("efforts: what each family offers and what each maps to", "[effort]") {
  CHECK(effortsOf("gemini-3-pro-preview") == std::vector<Effort>{Effort::low, Effort::high});
  CHECK(effortsOf("gemini-2.5-flash").size() == 3);
  CHECK(effortsOf("gemini-2.0-flash").empty());
  CHECK(effortsOf("gpt-5").size() == 3);
  GenerationConfig flash = generationFor("gemini-2.5-flash");
  applyEffort(flash, "gemini-2.5-flash", Effort::low);
  CHECK(flash.thinkingBudget == 1024);
  CHECK_FALSE(flash.reasoningEffort);
  GenerationOverride budget;
  budget.thinkingBudget = 100;
  GenerationConfig three = generationFor("gemini-3-pro-preview", {{"gemini-3", budget}});
  applyEffort(three, "gemini-3-pro-preview", Effort::low);
  CHECK(three.thinkingLevel == "LOW");
  CHECK_FALSE(three.thinkingBudget);  // by level or by budget, never both
  GenerationConfig unchanged = generationFor("gemini-3-pro-preview");
  applyEffort(unchanged, "gemini-3-pro-preview", Effort::medium);  // not offered: as it was
  CHECK(unchanged.thinkingLevel == "HIGH");
  GenerationConfig gpt;
  applyEffort(gpt, "gpt-5", Effort::high);
  CHECK(gpt.reasoningEffort == "high");
  CHECK(parseEffort("default") == Effort::standard);
  CHECK_FALSE(parseEffort("extreme"));
}

TEST_CASE("OpenAI: reasoning_effort goes out, reasoning and cached tokens come back apart", "[effort][openai]") {
  ModelRequest request;
  request.model = "gpt-5";
  request.config.reasoningEffort = "medium";
  std::vector<Content> contents{{Role::user, {Part::makeText("hi")}}};
  request.contents = &contents;
  std::string body = openai::buildRequestBody(request, {});
  CHECK_THAT(body, Catch::Contains(R"("reasoning_effort":"medium")"));
  request.config.reasoningEffort.reset();
  CHECK_THAT(openai::buildRequestBody(request, {}), !Catch::Contains("reasoning_effort"));
  auto reply = openai::parseCompletion(R"({"choices":[{"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],
    "usage":{"prompt_tokens":100,"completion_tokens":30,"total_tokens":130,
             "prompt_tokens_details":{"cached_tokens":60},"completion_tokens_details":{"reasoning_tokens":20}}})");
  REQUIRE(reply);
  REQUIRE(reply->usage);
  CHECK(reply->usage->candidatesTokens == 10);
  CHECK(reply->usage->thoughtsTokens == 20);
  CHECK(reply->usage->cachedTokens == 60);
  CHECK(reply->usage->totalTokens == 130);
}
