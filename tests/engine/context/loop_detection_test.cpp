// Loop detection: repeated tool calls and cycles, repeated streamed text, the
// two strikes, no false alarms, and the setting that turns it off.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/engine/context/context_fixture.h"
#include "engine/context/loop_detector.h"

using namespace lathe;
using namespace lathe::engine;
using namespace lathe::testing;

namespace {

FunctionCall toolCall(std::string name, std::string args) { return FunctionCall{"", std::move(name), json::Raw{std::move(args)}}; }

ModelChunk textChunkOf(std::string text) {
  ModelChunk chunk;
  chunk.parts.push_back(Part::makeText(std::move(text)));
  return chunk;
}

}  // namespace

TEST_CASE("the same call five times in a row: refused once, then the turn ends", "[context][loop]") {
  ContextFixture f;
  std::ofstream(f.dir / "a.txt") << "alpha\n";
  for (int i = 0; i < 6; ++i) f.server.push(callsReply({{"read_file", R"({"file_path":"a.txt"})"}}));
  auto stop = f.prompt("read a.txt");
  REQUIRE(stop.ok());
  CHECK(*stop == acp::StopReason::max_turn_requests);
  auto requests = f.requests();
  REQUIRE(requests.size() == 6);
  // Four ran; the fifth was answered with the loop notice and not run.
  auto outputs = responseOutputs(requests[5].body);
  REQUIRE(outputs.size() == 5);
  for (int i = 0; i < 4; ++i) CHECK(outputs[i].find("alpha") != std::string::npos);
  CHECK(outputs[4].find("loop") != std::string::npos);
  CHECK(outputs[4].find("alpha") == std::string::npos);
  // Four calls, and the person was told of the loop on a card of its own (no notices here).
  auto cards = f.editor.all<acp::ToolCall>();
  REQUIRE(cards.size() == 5);
  CHECK(std::count_if(cards.begin(), cards.end(), [](const acp::ToolCall& c) { return c.title == "Loop detected"; }) == 1);
  const std::string shown = f.agentText();
  CHECK(shown.find("Lathe stopped this turn") != std::string::npos);
  CHECK(shown.find("read_file") != std::string::npos);
  CHECK(f.server.violations().empty());
}

TEST_CASE("a short cycle of calls repeated five times is a loop", "[context][loop]") {
  LoopDetector detector;
  History h;
  detector.onPrompt({}, h, CancelToken());
  int refusedAt = -1;
  for (int i = 0; i < 12 && refusedAt < 0; ++i) {
    auto verdict = detector.onFunctionCall(i % 2 == 0 ? toolCall("glob", R"({"pattern":"*.h"})") : toolCall("glob", R"({"pattern":"*.cpp"})"));
    if (verdict.action != CallVerdict::Action::run) refusedAt = i;
  }
  CHECK(refusedAt == 9);  // the tenth call completes five rounds of the pair
  auto second = detector.onFunctionCall(toolCall("glob", R"({"pattern":"*.h"})"));
  CHECK(second.action == CallVerdict::Action::stop);
  CHECK(second.stopReason == acp::StopReason::max_turn_requests);
  CHECK(second.message.find("repeated 5 times") != std::string::npos);
}

TEST_CASE("twenty different edits to one file are no loop, a new prompt starts afresh", "[context][loop]") {
  LoopDetector detector;
  History h;
  detector.onPrompt({}, h, CancelToken());
  for (int i = 0; i < 20; ++i) {
    std::string args = R"({"file_path":"main.cpp","old_string":"v)" + std::to_string(i) + R"(","new_string":"v)" +
                       std::to_string(i + 1) + R"("})";
    CHECK(detector.onFunctionCall(toolCall("replace", args)).action == CallVerdict::Action::run);
  }
  for (int i = 0; i < 4; ++i) CHECK(detector.onFunctionCall(toolCall("read_file", "{}")).action == CallVerdict::Action::run);
  detector.onPrompt({}, h, CancelToken());
  CHECK(detector.onFunctionCall(toolCall("read_file", "{}")).action == CallVerdict::Action::run);
}

TEST_CASE("repeated lines in a code block, a table or a list are no loop", "[context][loop]") {
  LoopDetector detector;
  History h;
  detector.onPrompt({}, h, CancelToken());
  detector.beforeModelRequest(h, CancelToken());
  const std::string line = "    buffer.push_back(value); // the same line of code, again and again\n";
  std::string reply = "Here is the code:\n```cpp\n";
  for (int i = 0; i < 40; ++i) reply += line;
  reply += "```\n| name | value | note that repeats in every row of this table |\n";
  for (int i = 0; i < 30; ++i) reply += "| x | 1 | note that repeats in every row of this table, yes |\n";
  for (int i = 0; i < 30; ++i) reply += "- a list item that says the same thing each time, really\n";
  // Streamed in small pieces, as a model does.
  for (size_t at = 0; at < reply.size(); at += 7) CHECK_FALSE(detector.onChunk(textChunkOf(reply.substr(at, 7))));
}

TEST_CASE("the same text streamed over and over: cut and retried once, then the turn ends", "[context][loop]") {
  ContextFixture f;
  std::string looping;
  for (int i = 0; i < 20; ++i) looping += "I will now check the configuration file once more. ";
  auto loopReply = [&] {
    std::vector<Chunk> chunks;
    for (size_t at = 0; at < looping.size(); at += 40) chunks.emplace_back(textChunk(looping.substr(at, 40)));
    chunks.emplace_back(finishChunk());
    return ScriptedReply::stream(std::move(chunks));
  };
  f.server.push(loopReply());
  f.server.push(loopReply());
  auto stop = f.prompt("check the config");
  REQUIRE(stop.ok());
  CHECK(*stop == acp::StopReason::max_turn_requests);
  auto requests = f.requests();
  REQUIRE(requests.size() == 2);
  // The retry keeps the prompt and tells the model it was looping.
  CHECK(requests[1].body.find("check the config") != std::string::npos);
  CHECK(requests[1].body.find("going round in a loop") != std::string::npos);
  CHECK(requests[1].body.find("keeps coming back") != std::string::npos);
  CHECK(f.agentText().find("Lathe stopped this turn: the model was looping") != std::string::npos);
  CHECK(f.server.violations().empty());

  // The session still works.
  f.server.push(textReply("fine"));
  REQUIRE(f.prompt("hello").value() == acp::StopReason::end_turn);
}

TEST_CASE("model.disableLoopDetection turns loop detection off", "[context][loop]") {
  ContextFixture f([](AgentConfig& c) { c.context.loopDetection = false; });
  std::ofstream(f.dir / "a.txt") << "alpha\n";
  for (int i = 0; i < 7; ++i) f.server.push(callsReply({{"read_file", R"({"file_path":"a.txt"})"}}));
  f.server.push(textReply("done"));
  REQUIRE(f.prompt("read a.txt").value() == acp::StopReason::end_turn);
  CHECK(f.editor.all<acp::ToolCall>().size() == 7);
}

TEST_CASE("after 30 model requests the model is asked whether the turn is looping, two strikes end it", "[context][loop]") {
  ContextFixture f([](AgentConfig& c) { c.maxTurnRequests = 60; });
  for (int i = 0; i < 30; ++i) {
    f.server.push(callsReply({{"glob", R"({"pattern":"*.x)" + std::to_string(i) + R"("})"}}));
  }
  // Before request 31: the check, sure of a loop.
  f.server.push(ScriptedReply::text(R"({"looping": true, "confidence": 0.95, "analysis": "it globs for ever"})"));
  for (int i = 30; i < 36; ++i) f.server.push(callsReply({{"glob", R"({"pattern":"*.y)" + std::to_string(i) + R"("})"}}));
  // Six requests later (confidence 0.95 asks again soon, not ten later): sure again.
  f.server.push(ScriptedReply::text(R"({"looping": true, "confidence": 1.0, "analysis": "still globbing"})"));

  auto stop = f.prompt("find the files");
  REQUIRE(stop.ok());
  CHECK(*stop == acp::StopReason::max_turn_requests);
  auto requests = f.requests();
  REQUIRE(requests.size() == 38);
  const auto& check = requests[30];
  CHECK(check.action == "generateContent");
  CHECK(check.body.find("find the files") != std::string::npos);     // the user's request
  CHECK(check.body.find("*.x29") != std::string::npos);              // the recent history
  CHECK(check.body.find("*.x5\\\"") == std::string::npos);           // not the old part
  CHECK(check.body.find("functionDeclarations") == std::string::npos);
  // The model was told, and went on.
  CHECK(requests[31].body.find("going round in a loop") != std::string::npos);
  CHECK(requests[31].body.find("it globs for ever") != std::string::npos);
  CHECK(requests[37].action == "generateContent");
  CHECK(f.agentText().find("Lathe stopped this turn: the model was looping") != std::string::npos);
  CHECK(f.agentText().find("still globbing") != std::string::npos);
  CHECK(f.server.violations().empty());
}

TEST_CASE("the model-based check: an unsure answer is no loop, answers are read leniently", "[context][loop]") {
  auto judged = parseLoopJudgement("Here you go:\n```json\n{\"looping\": true, \"confidence\": 0.5, \"analysis\": \"maybe\"}\n```");
  REQUIRE(judged);
  CHECK(judged->looping);
  CHECK(judged->confidence == 0.5);
  CHECK(judged->analysis == "maybe");
  CHECK_FALSE(parseLoopJudgement("no idea"));
  CHECK_FALSE(parseLoopJudgement("{\"looping\": true}"));

  ContextFixture f([](AgentConfig& c) { c.maxTurnRequests = 60; });
  for (int i = 0; i < 30; ++i) f.server.push(callsReply({{"glob", R"({"pattern":"*.z)" + std::to_string(i) + R"("})"}}));
  f.server.push(ScriptedReply::text(R"({"looping": true, "confidence": 0.6, "analysis": "perhaps"})"));
  f.server.push(textReply("found them"));
  REQUIRE(f.prompt("find").value() == acp::StopReason::end_turn);
  auto requests = f.requests();
  REQUIRE(requests.size() == 32);
  CHECK(requests[31].body.find("going round in a loop") == std::string::npos);
}
