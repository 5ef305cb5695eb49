// History compression: the split point keeps call/response pairs whole, the
// snapshot call holds the older part, the next request holds the snapshot and
// the newest part, the inflation fallback, and /compress on demand.
#include <catch2/catch.hpp>

#include "tests/engine/context/context_fixture.h"
#include "engine/context/compression.h"
#include "engine/context/context_manager.h"
#include "engine/context/token_estimate.h"
#include "engine/config/settings.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using namespace lathe::testing;

namespace {

Part callPart(std::string name) {
  Part p;
  p.functionCall = FunctionCall{"", std::move(name), json::Raw{"{}"}};
  return p;
}

Part responsePart(std::string name, std::string output) {
  Part p;
  p.functionResponse = FunctionResponse{"", std::move(name), json::Raw{json::build([&](json::Writer& w) {
                                          w.StartObject();
                                          json::put(w, "output", output);
                                          w.EndObject();
                                        })}};
  return p;
}

bool answersCalls(const Content& c) {
  for (const auto& p : c.parts) {
    if (p.functionResponse) return true;
  }
  return false;
}

std::string words(const std::string& word, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += word + std::to_string(i) + " ";
  return out;
}

}  // namespace

TEST_CASE("compression split: only at a user content that answers no calls", "[context]") {
  // p1, call, response, answer, p2, call, response(big), answer, p3, call, response
  std::vector<Content> h{
      {Role::user, {Part::makeText(words("alpha", 50))}},
      {Role::model, {callPart("glob")}},
      {Role::user, {responsePart("glob", words("beta", 400))}},
      {Role::model, {Part::makeText("found them")}},
      {Role::user, {Part::makeText("now read")}},
      {Role::model, {callPart("read_file")}},
      {Role::user, {responsePart("read_file", words("gamma", 800))}},
      {Role::model, {Part::makeText("read it")}},
      {Role::user, {Part::makeText("and again")}},
      {Role::model, {callPart("read_file")}},
      {Role::user, {responsePart("read_file", words("delta", 100))}},
  };
  size_t split = findCompressionSplit(h, 0.3);
  REQUIRE(split > 0);
  REQUIRE(split < h.size());
  CHECK(h[split].role == Role::user);
  CHECK_FALSE(answersCalls(h[split]));
  CHECK(split == 8);  // the big read is in the older part; the last exchange is kept whole
  // The split is never between a call and its response, whatever the share.
  for (double keep : {0.0, 0.1, 0.3, 0.5, 0.9, 1.0}) {
    size_t s = findCompressionSplit(h, keep);
    if (s > 0 && s < h.size()) {
      CHECK(h[s].role == Role::user);
      CHECK_FALSE(answersCalls(h[s]));
    }
  }
  // A history that ends with a plain answer can be compressed whole.
  std::vector<Content> done{{Role::user, {Part::makeText(words("x", 100))}}, {Role::model, {Part::makeText("ok")}}};
  CHECK(findCompressionSplit(done, 0.3) == 2);
  // A single prompt in flight: nothing to replace.
  std::vector<Content> one{{Role::user, {Part::makeText("hi")}}};
  CHECK(findCompressionSplit(one, 0.3) == 0);
}

TEST_CASE("compression mid-turn: the snapshot call holds the older part, the next request the snapshot and the newest part", "[context]") {
  ContextFixture f([](AgentConfig& c) { c.contextWindow = 8000; });
  std::ofstream(f.dir / "notes.txt") << "note one\nnote two\n";
  const std::string older = words("ancient", 700);  // about 2,000 tokens
  f.server.push(textReply("first answer", 100));
  // The reply with the call reports 5,000 prompt tokens: over half of 8,000.
  f.server.push(callsReply({{"read_file", R"({"file_path":"notes.txt"})"}}, 5000));
  f.server.push(ScriptedReply::text("<state_snapshot><overall_goal>read notes</overall_goal></state_snapshot>"));
  f.server.push(textReply("done", 300));

  REQUIRE(f.prompt(older).value() == acp::StopReason::end_turn);
  REQUIRE(f.prompt("please read notes").value() == acp::StopReason::end_turn);

  auto requests = f.requests();
  REQUIRE(requests.size() == 4);
  CHECK(f.server.violations().empty());
  const auto& snapshotCall = requests[2];
  CHECK(snapshotCall.action == "generateContent");
  CHECK(snapshotCall.body.find("ancient699") != std::string::npos);      // the older part
  CHECK(snapshotCall.body.find("first answer") != std::string::npos);
  CHECK(snapshotCall.body.find("please read notes") == std::string::npos);  // the kept part is not summarised
  CHECK(snapshotCall.body.find("state_snapshot") != std::string::npos);
  CHECK(snapshotCall.body.find("functionDeclarations") == std::string::npos);

  const auto& next = requests[3];
  CHECK(next.action == "streamGenerateContent");
  CHECK(next.body.find("ancient699") == std::string::npos);
  CHECK(next.body.find("<overall_goal>read notes</overall_goal>") != std::string::npos);
  CHECK(next.body.find("please read notes") != std::string::npos);
  auto outputs = responseOutputs(next.body);
  REQUIRE(outputs.size() == 1);  // the call of this turn kept with its response
  CHECK(outputs[0].find("note two") != std::string::npos);

  const auto& h = f.session->history().contents();
  REQUIRE(h.size() == 6);
  CHECK(isSnapshot(h[0]));
  CHECK(f.agentText().find("Compressed the conversation") != std::string::npos);
}

TEST_CASE("compression: an earlier snapshot goes into the next snapshot call", "[context]") {
  ContextFixture f([](AgentConfig& c) { c.contextWindow = 8000; });
  f.server.push(textReply("a1", 100));
  f.server.push(ScriptedReply::text("<state_snapshot>FIRSTSNAP</state_snapshot>"));
  f.server.push(textReply("a2", 100));
  f.server.push(ScriptedReply::text("<state_snapshot>SECONDSNAP</state_snapshot>"));
  f.server.push(textReply("a3", 100));
  REQUIRE(f.prompt(words("one", 700)).ok());
  REQUIRE(f.prompt("/compress").value() == acp::StopReason::end_turn);
  REQUIRE(f.prompt(words("two", 700)).ok());
  REQUIRE(f.prompt("/compress").value() == acp::StopReason::end_turn);
  REQUIRE(f.prompt("three").ok());
  auto requests = f.requests();
  REQUIRE(requests.size() == 5);
  CHECK(requests[3].action == "generateContent");
  CHECK(requests[3].body.find("FIRSTSNAP") != std::string::npos);
  CHECK(requests[3].body.find("two699") != std::string::npos);
  CHECK(requests[4].body.find("SECONDSNAP") != std::string::npos);
  CHECK(requests[4].body.find("FIRSTSNAP") == std::string::npos);
}

TEST_CASE("/compress compresses on demand and sends nothing else", "[context]") {
  ContextFixture f;
  f.server.push(textReply("first answer"));
  f.server.push(ScriptedReply::text("<state_snapshot>the gist</state_snapshot>"));
  f.server.push(textReply("second answer"));
  REQUIRE(f.prompt(words("ancient", 500)).ok());
  REQUIRE(f.prompt("  /compress\n").value() == acp::StopReason::end_turn);
  auto requests = f.requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[1].action == "generateContent");
  CHECK(requests[1].body.find("ancient499") != std::string::npos);
  CHECK(requests[1].body.find("/compress") == std::string::npos);
  CHECK(f.agentText().find("Compressed the conversation: about") != std::string::npos);

  REQUIRE(f.prompt("go on").ok());
  requests = f.requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[2].body.find("the gist") != std::string::npos);
  CHECK(requests[2].body.find("ancient499") == std::string::npos);
  CHECK(requests[2].body.find("go on") != std::string::npos);
  CHECK(f.server.violations().empty());
}

TEST_CASE("/compress on a short conversation says so and changes nothing", "[context]") {
  ContextFixture f;
  REQUIRE(f.prompt("/compress").value() == acp::StopReason::end_turn);
  CHECK(f.requests().empty());
  CHECK(f.agentText().find("Nothing to compress") != std::string::npos);
  CHECK(f.session->history().empty());
}

TEST_CASE("compression that would inflate keeps the history and shortens old tool outputs instead", "[context]") {
  ContextFixture f([](AgentConfig& c) {
    c.contextWindow = 40'000;
    c.context.recentOutputChars = 4000;
  });
  std::string big;
  for (int i = 0; i < 400; ++i) big += "line " + std::to_string(i) + " of the big file\n";
  std::ofstream(f.dir / "big.txt") << big;
  f.server.push(textReply("hello", 100));
  f.server.push(callsReply({{"read_file", R"({"file_path":"big.txt"})"}}, 100));
  f.server.push(textReply("read it", 25'000));  // over half of 40,000
  f.server.push(ScriptedReply::text("<state_snapshot>" + words("verbose", 6000) + "</state_snapshot>"));
  f.server.push(textReply("fine"));
  REQUIRE(f.prompt("hi").ok());
  REQUIRE(f.prompt("read big.txt").ok());
  const size_t before = f.session->history().size();
  REQUIRE(f.prompt("next").ok());

  auto requests = f.requests();
  REQUIRE(requests.size() == 5);
  CHECK(requests[3].action == "generateContent");
  const auto& h = f.session->history().contents();
  CHECK(h.size() == before + 2);  // nothing replaced
  CHECK_FALSE(isSnapshot(h[0]));
  auto outputs = responseOutputs(requests[4].body);
  REQUIRE(outputs.size() == 1);
  CHECK(outputs[0].find("an older tool output, shortened") != std::string::npos);
  CHECK(outputs[0].find("line 200 of the big file") == std::string::npos);
  CHECK(outputs[0].find("line 399 of the big file") != std::string::npos);  // the tail stays
  CHECK(f.agentText().find("would not have made the conversation smaller") != std::string::npos);
  // The whole output is saved, and its path told.
  size_t at = outputs[0].find("saved in ");
  REQUIRE(at != std::string::npos);
  std::string path = outputs[0].substr(at + 9, outputs[0].find(" ...]", at) - at - 9);
  std::ifstream saved(path);
  std::string whole((std::istreambuf_iterator<char>(saved)), std::istreambuf_iterator<char>());
  INFO(path << " holds " << whole.size() << " bytes");
  CHECK(whole.find("line 200 of the big file") != std::string::npos);
  CHECK(whole.find("line 399 of the big file") != std::string::npos);
}

TEST_CASE("token accounting: the model's reported count plus an estimate of what came after", "[context]") {
  ContextFixture f;
  ContextManager manager(*f.session);
  History h;
  REQUIRE(h.appendUser({Part::makeText("hello")}).ok());
  // No report yet: an estimate of the whole history.
  const int64_t estimate = manager.countTokens(h);
  CHECK(estimate > 0);
  CHECK(estimate < 20);
  REQUIRE_FALSE(manager.beforeModelRequest(h, CancelToken()));
  ModelChunk last;
  last.usage = Usage{50'000, 10, 0, 50'010};
  manager.onChunk(last);
  CHECK(manager.countTokens(h) == 50'000);
  Content reply{Role::model, {Part::makeText(std::string(400, 'a'))}};
  const int64_t replyTokens = estimateTokens(reply);
  REQUIRE(h.appendModel(reply).ok());
  CHECK(manager.countTokens(h) == 50'000 + replyTokens);
  CHECK(manager.countTokens(h) == 50'000 + replyTokens);  // counted once
  // An edit other than an append: estimated again from scratch.
  REQUIRE(h.replacePrefix(2, snapshotContents("gist")).ok());
  CHECK(manager.countTokens(h) == estimateTokens(h.contents()));
}

TEST_CASE("token accounting: media is counted by the model's count endpoint, text is estimated", "[context]") {
  ContextFixture f;
  ContextManager manager(*f.session);
  auto counts = [&] {
    std::vector<RecordedRequest> out;
    for (auto& r : f.server.requests()) if (r.action == "countTokens") out.push_back(r);
    return out;
  };
  History h;
  REQUIRE(h.appendUser({Part::makeText("hello")}).ok());
  const int64_t text = manager.countTokens(h);
  CHECK(counts().empty());  // text: estimated, no round trip
  REQUIRE(h.appendModel(Content{Role::model, {Part::makeText("Send the picture.")}}).ok());
  const int64_t reply = manager.countTokens(h) - text;
  CHECK(counts().empty());

  ScriptedReply count;
  count.method = "countTokens";
  count.chunks = {Chunk(R"({"totalTokens":258})")};
  f.server.push(count);
  Part image;
  image.inlineData = InlineData{"image/png", "iVBORw0KGgo="};
  REQUIRE(h.appendUser({Part::makeText("here"), image}).ok());
  CHECK(manager.countTokens(h) == text + reply + 258);  // only the new content was counted, by the model
  REQUIRE(counts().size() == 1);
  CHECK(counts()[0].model == "gemini-2.5-pro");
  CHECK(counts()[0].body.find("iVBORw0KGgo=") != std::string::npos);
  CHECK(counts()[0].body.find("hello") == std::string::npos);
  CHECK(manager.countTokens(h) == text + reply + 258);  // counted once
  CHECK(counts().size() == 1);
}

TEST_CASE("size refusals are recognised from either API's message", "[context]") {
  CHECK(ContextManager::isSizeRefusal(makeError(Errc::http, "Gemini API error 400 (INVALID_ARGUMENT): The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).")));
  CHECK(ContextManager::isSizeRefusal(makeError(Errc::http, "OpenAI-compatible API error 400 (context_length_exceeded) This model's maximum context length is 128000 tokens.")));
  CHECK_FALSE(ContextManager::isSizeRefusal(makeError(Errc::http, "Gemini API error 429: quota")));
}

TEST_CASE("context settings: compressionThreshold, disableLoopDetection, truncateToolOutputThreshold", "[context]") {
  TempDir dir;
  const std::string path = (dir.path / "settings.json").string();
  std::ofstream(path) << R"({"model": {"compressionThreshold": 0.7, "disableLoopDetection": true},
                             "tools": {"truncateToolOutputThreshold": 20000}})";
  std::ofstream(dir.path / "more.json") << R"({"model": {"summarizeToolOutput": {"run_shell_command": {"tokenBudget": 500},
                                                                             "grep_search": true, "glob": false}}})";
  Settings settings;
  REQUIRE(mergeSettingsFile(path, settings).ok());
  CHECK(settings.compressionThreshold == 0.7);
  CHECK(settings.disableLoopDetection == true);
  CHECK(settings.truncateToolOutputThreshold == 20000);
  REQUIRE(mergeSettingsFile((dir.path / "more.json").string(), settings).ok());
  CHECK(settings.summarizeToolOutput == std::map<std::string, int64_t>{{"run_shell_command", 500}, {"grep_search", 2000}});
  for (const char* bad : {R"({"model": {"compressionThreshold": 1.5}})", R"({"model": {"compressionThreshold": 0}})",
                          R"({"tools": {"truncateToolOutputThreshold": 10}})",
                          R"({"model": {"disableLoopDetection": "yes"}})",
                          R"({"model": {"summarizeToolOutput": {"glob": {"tokenBudget": -1}}}})"}) {
    std::ofstream(path) << bad;
    Settings other;
    CHECK_FALSE(mergeSettingsFile(path, other).ok());
  }
}

TEST_CASE("an editor that shows compactions sees one: in progress, its summary, completed, and no note", "[context]") {
  acp::ClientCapabilities caps;
  caps.compaction = true;
  ContextFixture f([](AgentConfig& c) { c.contextWindow = 8000; }, caps);
  f.server.push(textReply("a1", 100));
  f.server.push(ScriptedReply::text("<state_snapshot>THE SUMMARY</state_snapshot>"));
  REQUIRE(f.prompt(words("one", 700)).ok());
  REQUIRE(f.prompt("/compress").value() == acp::StopReason::end_turn);
  auto updates = f.editor.all<acp::CompactionUpdate>();
  REQUIRE(updates.size() == 2);
  CHECK(updates[0].status == acp::CompactionStatus::in_progress);
  CHECK(updates[1].status == acp::CompactionStatus::completed);
  CHECK(updates[0].compactionId == updates[1].compactionId);
  CHECK(updates[0].compactionId.starts_with("compaction_"));
  auto summary = f.editor.all<acp::CompactionSummaryChunk>();
  REQUIRE(summary.size() == 1);
  CHECK(summary[0].compactionId == updates[0].compactionId);
  CHECK_THAT(summary[0].text, Catch::Contains("THE SUMMARY"));
  CHECK(f.agentText().find("Compressed the conversation") == std::string::npos);
  CHECK(isSnapshot(f.session->history().contents()[0]));
}

TEST_CASE("a compaction that fails says so on the compaction, with the reason", "[context]") {
  acp::ClientCapabilities caps;
  caps.compaction = true;
  ContextFixture f([](AgentConfig& c) { c.contextWindow = 8000; }, caps);
  f.server.push(textReply("a1", 100));
  f.server.push(ScriptedReply::error(400, R"({"error":{"code":400,"message":"bad summary request"}})"));
  REQUIRE(f.prompt(words("one", 700)).ok());
  REQUIRE(f.prompt("/compress").value() == acp::StopReason::end_turn);
  auto updates = f.editor.all<acp::CompactionUpdate>();
  REQUIRE(updates.size() == 2);
  CHECK(updates[1].status == acp::CompactionStatus::failed);
  REQUIRE(updates[1].error);
  CHECK_THAT(*updates[1].error, Catch::Contains("Could not compress"));
  CHECK(f.editor.all<acp::CompactionSummaryChunk>().empty());
}
