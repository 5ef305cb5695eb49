// Tool output budgets and recovery from size refusals: every tool's response
// reaches the model within its budget with error lines kept and the whole
// output saved; a request the API refuses for size leaves a session whose
// next prompt works.
#include <catch2/catch.hpp>

#include "tests/engine/context/context_fixture.h"
#include "engine/context/call_arguments.h"
#include "engine/context/output_budget.h"

using namespace lathe;
using namespace lathe::engine;
using namespace lathe::testing;

namespace {

std::string savedPathIn(const std::string& output, const std::string& before, const std::string& after) {
  size_t at = output.find(before);
  if (at == std::string::npos) return "";
  at += before.size();
  return output.substr(at, output.find(after, at) - at);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("a 5 MB output from several tools reaches the model within budget, errors kept, whole output saved", "[context]") {
  ContextFixture f;
  {
    std::ofstream big(f.dir / "big.log");
    const std::string pad(1400, 'x');
    for (int i = 0; i < 2000; ++i) {
      if (i == 1000) {
        big << "ERROR: disk on fire at sector 1000\n";
      } else {
        big << "entry " << i << " " << pad << "\n";
      }
    }
  }
  const std::string shell =
      "yes 'filler text for the shell output budget test' | head -n 25000; echo 'error: the middle failed'; "
      "yes 'more filler text for the shell output budget' | head -n 25000";
  f.server.push(callsReply({{"read_file", R"({"file_path":"big.log"})"},
                            {"run_shell_command", R"({"command":")" + shell + R"("})"}}));
  f.server.push(textReply("done"));
  REQUIRE(f.prompt("look at the logs").value() == acp::StopReason::end_turn);
  auto requests = f.requests();
  REQUIRE(requests.size() == 2);
  auto outputs = responseOutputs(requests[1].body);
  REQUIRE(outputs.size() == 2);
  for (const auto& output : outputs) CHECK(output.size() <= 40'000);

  const std::string& read = outputs[0];
  CHECK(read.find("ERROR: disk on fire at sector 1000") != std::string::npos);
  CHECK(read.find("entry 1999") != std::string::npos);
  std::string readPath = savedPathIn(read, "is saved in ", " (read parts");
  REQUIRE_FALSE(readPath.empty());
  CHECK(readPath.rfind((f.dataDir / "s1").string(), 0) == 0);
  std::string whole = slurp(readPath);
  CHECK(whole.size() > 2'800'000);
  CHECK(whole.find("entry 0 ") != std::string::npos);
  CHECK(whole.find("ERROR: disk on fire at sector 1000") != std::string::npos);
  CHECK(whole.find("entry 1999 ") != std::string::npos);

  const std::string& shellOut = outputs[1];
  CHECK(shellOut.find("error: the middle failed") != std::string::npos);
  std::string shellPath = savedPathIn(shellOut, "is saved in ", " (read parts");
  REQUIRE_FALSE(shellPath.empty());
  std::string shellWhole = slurp(shellPath);
  CHECK(shellWhole.size() >= 50'000 * 45);
  CHECK(shellWhole.find("error: the middle failed") != std::string::npos);
}

TEST_CASE("a response budget never exceeds what is left of the context window", "[context]") {
  ContextFixture f([](AgentConfig& c) { c.contextWindow = 4000; });
  std::string text;
  for (int i = 0; i < 3000; ++i) text += "row " + std::to_string(i) + " of a long table\n";
  std::ofstream(f.dir / "table.txt") << text;
  f.server.push(callsReply({{"read_file", R"({"file_path":"table.txt"})"}}));
  f.server.push(textReply("done"));
  REQUIRE(f.prompt("read the table").ok());
  auto requests = f.requests();
  REQUIRE(requests.size() == 2);
  auto outputs = responseOutputs(requests[1].body);
  REQUIRE(outputs.size() == 1);
  CHECK(outputs[0].size() < 12'000);  // about 3,500 tokens left, at 3 characters each
  CHECK(outputs[0].find("characters omitted") != std::string::npos);
}

TEST_CASE("budgetText keeps text that fits and cuts text that does not", "[context]") {
  BudgetPlace nowhere;
  CHECK(budgetText("short", 100, nowhere) == "short");
  std::string longText(10'000, 'a');
  longText += "\nwarning: something odd\n" + std::string(10'000, 'b');
  std::string cut = budgetText(longText, 5000, nowhere);
  CHECK(cut.size() <= 5000);
  CHECK(cut.find("warning: something odd") != std::string::npos);
  CHECK(cut.find("was not saved") != std::string::npos);
  // Other members of a response survive a rewrite of its text.
  json::Raw raw{R"({"output":"abc","exitCode":2})"};
  ResponseText text = responseText(raw);
  CHECK(text.key == "output");
  CHECK(text.text == "abc");
  text.text = "xyz";
  auto doc = json::parse(withResponseText(raw, text).text);
  REQUIRE(doc.ok());
  CHECK(json::getStr(*doc, "output") == "xyz");
  CHECK(json::getInt(*doc, "exitCode") == 2);
}

TEST_CASE("a request refused for its size ends the turn clearly and the next prompt works", "[context]") {
  ContextFixture f;
  std::string text;
  for (int i = 0; i < 1500; ++i) text += "payload line " + std::to_string(i) + "\n";
  std::ofstream(f.dir / "payload.txt") << text;
  f.server.push(callsReply({{"read_file", R"({"file_path":"payload.txt"})"}}));
  f.server.push(ScriptedReply::error(
      400,
      R"({"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}})"));
  f.server.push(textReply("all good"));

  auto first = f.prompt("read payload.txt");
  REQUIRE(first.ok());
  CHECK(*first == acp::StopReason::max_tokens);
  CHECK(f.agentText().find("too large for its context window") != std::string::npos);

  auto second = f.prompt("carry on");
  REQUIRE(second.ok());
  CHECK(*second == acp::StopReason::end_turn);
  auto requests = f.requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[1].body.find("payload line 700") != std::string::npos);  // what was refused
  CHECK(requests[2].body.find("payload line 700") == std::string::npos);  // trimmed since
  CHECK(requests[2].body.find("payload line 1499") != std::string::npos);
  CHECK(requests[2].body.find("carry on") != std::string::npos);
  CHECK(f.server.violations().empty());
}

TEST_CASE("old tool outputs are shortened as the history grows, the recent ones kept whole", "[context]") {
  ContextFixture f([](AgentConfig& c) { c.context.recentOutputChars = 30'000; });
  std::string text;
  for (int i = 0; i < 1200; ++i) text += "big file line " + std::to_string(i) + "\n";  // about 20 KB
  std::ofstream(f.dir / "big.txt") << text;
  for (int round = 0; round < 8; ++round) {
    f.server.push(callsReply({{"read_file", R"({"file_path":"big.txt"})"}}));
    f.server.push(textReply("read " + std::to_string(round)));
    REQUIRE(f.prompt("read it again " + std::to_string(round)).ok());
  }
  auto requests = f.requests();
  REQUIRE(requests.size() == 16);
  auto last = responseOutputs(requests.back().body);
  REQUIRE(last.size() == 8);
  CHECK(last.back().find("big file line 600") != std::string::npos);  // the newest whole
  CHECK(last.front().find("big file line 600") == std::string::npos);  // the oldest shortened
  CHECK(last.front().find("an older tool output, shortened") != std::string::npos);
  CHECK(requests.back().body.size() < requests.front().body.size() + 5 * 20'000);
}

TEST_CASE("a prompt that cannot fit the context window is not sent, not kept, and the next prompt works", "[context]") {
  ContextFixture f([](AgentConfig& c) { c.contextWindow = 4000; });
  f.server.push(textReply("small answer"));
  auto stop = f.prompt(std::string(30'000, 'q'));
  REQUIRE(stop.ok());
  CHECK(*stop == acp::StopReason::max_tokens);
  CHECK(f.requests().empty());
  CHECK(f.session->history().empty());
  CHECK(f.agentText().find("no longer fits the model's context window") != std::string::npos);
  REQUIRE(f.prompt("a short one").value() == acp::StopReason::end_turn);
  REQUIRE(f.requests().size() == 1);
  CHECK(f.requests()[0].body.find("qqqq") == std::string::npos);
}

TEST_CASE("summarizeToolOutput: a long output of a chosen tool becomes a model-written summary, saved whole", "[context]") {
  ContextFixture f([](AgentConfig& c) { c.context.summarizeTools = {{"read_file", 300}}; });
  std::string text;
  for (int i = 0; i < 400; ++i) text += i == 200 ? "ERROR: connection refused at step 200\n" : "step " + std::to_string(i) + " ok\n";
  std::ofstream(f.dir / "run.log") << text;
  std::ofstream(f.dir / "tiny.txt") << "tiny\n";
  f.server.push(callsReply({{"read_file", R"({"file_path":"run.log"})"}, {"read_file", R"({"file_path":"tiny.txt"})"}}));
  f.server.push(ScriptedReply::text("400 steps ran; one failed. <error>ERROR: connection refused at step 200</error>"));
  f.server.push(textReply("done"));
  REQUIRE(f.prompt("what happened?").value() == acp::StopReason::end_turn);
  auto requests = f.requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[1].action == "generateContent");
  CHECK(requests[1].body.find("The output of read_file") != std::string::npos);
  CHECK(requests[1].body.find("step 399 ok") != std::string::npos);
  CHECK(requests[1].body.find("Use at most 300 tokens") != std::string::npos);
  auto outputs = responseOutputs(requests[2].body);
  REQUIRE(outputs.size() == 2);
  CHECK(outputs[0].find("A summary of this output, written by a model") != std::string::npos);
  CHECK(outputs[0].find("<error>ERROR: connection refused at step 200</error>") != std::string::npos);
  CHECK(outputs[0].find("step 399 ok") == std::string::npos);
  CHECK(outputs[1].find("tiny") != std::string::npos);  // short: not summarised
  std::string path = savedPathIn(outputs[0], "is saved in ", "]");
  REQUIRE_FALSE(path.empty());
  CHECK(slurp(path).find("step 399 ok") != std::string::npos);
}

TEST_CASE("oversized call arguments keep a head and a tail, stay a JSON object, and say what was left out") {
  std::string big(50'000, 'x');
  big.replace(0, 5, "HEAD!");
  big.replace(big.size() - 5, 5, "TAIL!");
  json::Raw args{json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "file_path", "a.txt");
    json::key(w, "edits");
    w.StartArray();
    json::str(w, big);
    w.EndArray();
    w.EndObject();
  })};
  auto shorter = shortenCallArguments(args, 1000);
  REQUIRE(shorter);
  CHECK(shorter->text.size() < 3000);
  auto doc = json::parse(shorter->text);
  REQUIRE(doc);
  REQUIRE(doc->IsObject());
  CHECK(json::getStr(*doc, "file_path") == "a.txt");
  std::string kept = (*doc)["edits"][0].GetString();
  CHECK(kept.rfind("HEAD!", 0) == 0);
  CHECK(kept.find("TAIL!") == kept.size() - 5);
  CHECK(kept.find("were left out by Lathe afterwards") != std::string::npos);
  // Short arguments, and what is not an object, are left alone.
  CHECK_FALSE(shortenCallArguments(json::Raw{R"({"file_path":"a.txt"})"}, 1000));
  CHECK_FALSE(shortenCallArguments(json::Raw{"[\"" + big + "\"]"}, 1000));
}
