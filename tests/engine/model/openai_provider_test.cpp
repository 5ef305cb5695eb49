// The OpenAI-compatible provider against the fake server on 127.0.0.1:
// streamed text and reasoning, tool calls assembled from pieces (parallel, all
// at index 0, malformed), a whole JSON answer, retries, a cut stream, the
// request built from the history, and generate().
#include <catch2/catch.hpp>

#include "engine/model/openai/openai_provider.h"
#include "engine/model/openai/openai_wire.h"
#include "engine/model/recording_provider.h"
#include "engine/model/replay_provider.h"
#include "tests/support/temp_dir.h"
#include "tests/support/fake_openai_server.h"

using namespace lathe;
using namespace lathe::engine;
using Reply = testing::OpenAiReply;
using std::chrono::milliseconds;

namespace {

struct Fixture {
  testing::FakeOpenAiServer server;
  std::vector<milliseconds> waits;
  std::unique_ptr<OpenAiProvider> provider;
  std::vector<Content> history{{Role::user, {Part::makeText("hi")}}};
  ModelRequest request;
  Fixture() {
    REQUIRE(server.start().ok());
    OpenAiProvider::Options o;
    o.apiKey = "sk-test";
    o.baseUrl = server.baseUrl();
    o.sleep = [this](milliseconds d, const CancelToken&) { waits.push_back(d); };
    provider = std::make_unique<OpenAiProvider>(o);
    request.model = "local-model";
    request.contents = &history;
  }
};

std::vector<FunctionCall> callsOf(const ModelReply& reply) {
  std::vector<FunctionCall> out;
  for (const Part& p : reply.content.parts) {
    if (p.functionCall) out.push_back(*p.functionCall);
  }
  return out;
}

std::string textOf(const ModelReply& reply, bool thought) {
  std::string out;
  for (const Part& p : reply.content.parts) {
    if (p.text && p.thought == thought) out += *p.text;
  }
  return out;
}

}  // namespace

TEST_CASE("openai: text and reasoning stream as they come, usage arrives last") {
  Fixture f;
  f.server.push(Reply::stream({Reply::reasoningDelta("Let me "), Reply::reasoningDelta("think."),
                               Reply::textDelta("Hello, "), Reply::textDelta("world"), Reply::finish("stop"),
                               Reply::usage(12, 5)}));
  std::vector<std::string> seen;
  auto reply = f.provider->stream(f.request, [&](const ModelChunk& c) {
    for (const Part& p : c.parts) seen.push_back((p.thought ? "T:" : "A:") + p.text.value_or(""));
  }, CancelToken());
  REQUIRE(reply.ok());
  CHECK(seen == std::vector<std::string>{"T:Let me ", "T:think.", "A:Hello, ", "A:world"});
  CHECK(textOf(*reply, false) == "Hello, world");
  CHECK(textOf(*reply, true) == "Let me think.");
  CHECK(reply->finishReason == FinishReason::stop);
  REQUIRE(reply->usage);
  CHECK(reply->usage->totalTokens == 17);
  auto body = json::parse(f.server.requests().at(0)).value();
  CHECK(body["stream"].GetBool());
  CHECK(body["stream_options"]["include_usage"].GetBool());
  CHECK(f.server.authorizations().at(0) == "Bearer sk-test");
}

TEST_CASE("openai: tool calls are assembled by index from many pieces, in parallel") {
  Fixture f;
  std::vector<std::string> events{Reply::toolDelta(0, "call_a", "read_file", ""),
                                  Reply::toolDelta(1, "call_b", "glob", "")};
  std::string argsA = R"({"file_path":"README.md"})";
  std::string argsB = R"({"pattern":"**/*.cpp"})";
  for (size_t i = 0; i < std::max(argsA.size(), argsB.size()); ++i) {
    if (i < argsA.size()) events.push_back(Reply::toolDelta(0, "", "", argsA.substr(i, 1)));
    if (i < argsB.size()) events.push_back(Reply::toolDelta(1, "", "", argsB.substr(i, 1)));
  }
  events.push_back(Reply::finish("stop"));  // some servers say stop even for tool calls
  f.server.push(Reply::stream(events));
  auto reply = f.provider->stream(f.request, nullptr, CancelToken());
  REQUIRE(reply.ok());
  auto calls = callsOf(*reply);
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].id == "call_a");
  CHECK(calls[0].name == "read_file");
  CHECK(calls[0].args.text == argsA);
  CHECK(calls[1].name == "glob");
  CHECK(calls[1].args.text == argsB);
}

TEST_CASE("openai: calls all at index 0 are told apart by id, missing ids are made up, bad JSON is kept as sent") {
  Fixture f;
  f.server.push(Reply::stream({Reply::toolDelta(0, "x1", "ls", "{}"), Reply::toolDelta(0, "x2", "ls", "{}"),
                               Reply::toolDelta(0, "", "", ""), Reply::finish("tool_calls")}));
  f.server.push(Reply::stream({Reply::toolDelta(0, "", "read_file", R"({"file_path": )"), Reply::finish("tool_calls")}));
  auto first = f.provider->stream(f.request, nullptr, CancelToken());
  REQUIRE(first.ok());
  auto calls = callsOf(*first);
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].id == "x1");
  CHECK(calls[1].id == "x2");
  auto second = f.provider->stream(f.request, nullptr, CancelToken());
  REQUIRE(second.ok());
  auto bad = callsOf(*second);
  REQUIRE(bad.size() == 1);
  CHECK_FALSE(bad[0].id.empty());
  CHECK(bad[0].args.text == R"({"file_path": )");
  CHECK_FALSE(json::parse(bad[0].args.text).ok());
}

TEST_CASE("openai: a server that ignores stream answers with one JSON body") {
  Fixture f;
  f.server.push(Reply::json(R"({"choices":[{"index":0,"message":{"role":"assistant","content":"whole",
    "tool_calls":[{"id":"c9","type":"function","function":{"name":"glob","arguments":{"pattern":"*"}}}]},
    "finish_reason":"tool_calls"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}})"));
  int chunks = 0;
  auto reply = f.provider->stream(f.request, [&](const ModelChunk&) { ++chunks; }, CancelToken());
  REQUIRE(reply.ok());
  CHECK(chunks == 1);
  CHECK(textOf(*reply, false) == "whole");
  auto calls = callsOf(*reply);
  REQUIRE(calls.size() == 1);
  CHECK(json::parse(calls[0].args.text).value()["pattern"].GetString() == std::string("*"));
}

TEST_CASE("openai: 429 then success waits as asked, a 401 names the key, a cut stream fails") {
  Fixture f;
  f.server.push(Reply::error(429, R"({"error":{"message":"rate limited","type":"rate_limit"}})", "2"));
  f.server.push(Reply::stream({Reply::textDelta("after the wait"), Reply::finish("stop")}));
  auto reply = f.provider->stream(f.request, nullptr, CancelToken());
  REQUIRE(reply.ok());
  REQUIRE(f.waits.size() == 1);
  CHECK(f.waits[0] == milliseconds(2000));

  f.server.push(Reply::error(401, R"({"error":{"message":"Incorrect API key","code":"invalid_api_key"}})"));
  auto denied = f.provider->stream(f.request, nullptr, CancelToken());
  REQUIRE_FALSE(denied.ok());
  CHECK(denied.error().code == Errc::auth_required);
  CHECK_THAT(denied.error().message, Catch::Contains("invalid_api_key") && Catch::Contains("OPENAI_API_KEY"));

  f.server.push(Reply::cut({Reply::textDelta("half")}));
  auto cut = f.provider->stream(f.request, nullptr, CancelToken());
  REQUIRE_FALSE(cut.ok());
  CHECK_THAT(cut.error().message, Catch::Contains("broke off"));
}

TEST_CASE("openai: the request carries the history as messages, tools and images, generate is not streamed") {
  Fixture f;
  Part call;
  call.functionCall = FunctionCall{"call_1", "read_file", json::Raw{R"({"file_path":"a"})"}};
  Part response;
  response.functionResponse = FunctionResponse{"call_1", "read_file", json::Raw{R"({"output":"alpha"})"}};
  Part image;
  image.inlineData = InlineData{"image/png", "iVBORw0K"};
  Part audio;
  audio.inlineData = InlineData{"audio/wav", "UklGRg=="};
  f.history = {{Role::user, {Part::makeText("read a")}},
               {Role::model, {Part::makeText("Reading."), call}},
               {Role::user, {response, image, audio}}};
  std::vector<tools::ToolDeclaration> tools{{"read_file", "Reads a file.",
                                             R"({"$schema":"http://json-schema.org/draft-07/schema#","type":"object"})"}};
  f.request.systemInstruction = "You are Lathe.";
  f.request.tools = &tools;
  f.server.push(Reply::json(R"({"choices":[{"index":0,"message":{"role":"assistant","content":"done"},"finish_reason":"stop"}]})"));
  auto reply = f.provider->generate(f.request, CancelToken());
  REQUIRE(reply.ok());
  CHECK(textOf(*reply, false) == "done");
  CHECK(f.server.violations().empty());
  auto body = json::parse(f.server.requests().at(0)).value();
  CHECK_FALSE(body["stream"].GetBool());
  const auto& messages = body["messages"];
  REQUIRE(messages.Size() == 5);
  CHECK(std::string(messages[0]["role"].GetString()) == "system");
  CHECK(std::string(messages[2]["tool_calls"][0]["function"]["arguments"].GetString()) == R"({"file_path":"a"})");
  CHECK(std::string(messages[3]["role"].GetString()) == "tool");
  CHECK(std::string(messages[3]["content"].GetString()) == "alpha");
  CHECK(std::string(messages[4]["content"][0]["image_url"]["url"].GetString()) == "data:image/png;base64,iVBORw0K");
  // Chat Completions has no inline audio in user content: it becomes a note, never an image_url.
  REQUIRE(messages[4]["content"].Size() == 2);
  CHECK(std::string(messages[4]["content"][1]["type"].GetString()) == "text");
  CHECK(std::string(messages[4]["content"][1]["text"].GetString()).find("audio/wav data of about 6 bytes, not sent") !=
        std::string::npos);
  CHECK_FALSE(body["tools"][0]["function"]["parameters"].HasMember("$schema"));
  CHECK(std::string(body["tool_choice"].GetString()) == "auto");
}

TEST_CASE("openai: replies recorded from this provider replay without a server") {
  Fixture f;
  f.server.push(Reply::stream({Reply::textDelta("Reading it."), Reply::toolDelta(0, "c1", "read_file", R"({"file_path":)"),
                               Reply::toolDelta(0, "", "", R"("a.txt"})"), Reply::finish("tool_calls")}));
  testing::TempDir dir;
  std::string file = (dir.path / "openai.jsonl").string();
  std::shared_ptr<ModelProvider> live(std::move(f.provider));
  auto recorder = RecordingProvider::open(live, file);
  REQUIRE(recorder.ok());
  auto recorded = (*recorder)->stream(f.request, nullptr, CancelToken());
  REQUIRE(recorded.ok());
  auto replay = ReplayProvider::open(file);
  REQUIRE(replay.ok());
  auto replayed = (*replay)->stream(f.request, nullptr, CancelToken());
  REQUIRE(replayed.ok());
  CHECK(textOf(*replayed, false) == "Reading it.");
  auto calls = callsOf(*replayed);
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].name == "read_file");
  CHECK(calls[0].id == "c1");
  CHECK(json::parse(calls[0].args.text).value()["file_path"].GetString() == std::string("a.txt"));
}
