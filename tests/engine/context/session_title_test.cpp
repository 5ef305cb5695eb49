// Session titles: a one-shot call after the first exchange, from a window of
// the conversation, cleaned to one line of at most 80 characters, sent once as
// session_info_update; a slow title call is given up on.
#include <catch2/catch.hpp>

#include "tests/engine/context/context_fixture.h"
#include "engine/context/session_title.h"

using namespace lathe;
using namespace lathe::engine;
using namespace lathe::testing;

TEST_CASE("a title is written once, after the first exchange, and sent as session_info_update", "[context][title]") {
  ContextFixture f;
  f.server.push(textReply("Sure, let us look at the parser."));
  f.server.push(textReply("Done."));
  REQUIRE(f.prompt("Help me fix the parser crash on empty input").ok());
  auto updates = f.editor.waitFor<acp::SessionInfoUpdate>(1);  // it follows the answer
  auto titles = f.server.titleRequests();
  REQUIRE(titles.size() == 1);
  CHECK(titles[0].action == "generateContent");
  CHECK(titles[0].body.find("User: Help me fix the parser crash on empty input") != std::string::npos);
  CHECK(titles[0].body.find("Assistant: Sure, let us look at the parser.") != std::string::npos);
  CHECK(titles[0].body.find("functionDeclarations") == std::string::npos);
  REQUIRE(updates.size() == 1);
  CHECK(updates[0].title == "Fake session title");
  // The wire form, as the schema wants it.
  auto doc = json::parse(acp::sessionNotification("s1", updates[0]).text);
  REQUIRE(doc.ok());
  CHECK(json::getStr((*doc)["update"], "sessionUpdate") == "session_info_update");
  CHECK(json::getStr((*doc)["update"], "title") == "Fake session title");

  REQUIRE(f.prompt("thanks").ok());
  CHECK(f.server.titleRequests().size() == 1);  // only once
  CHECK(f.editor.all<acp::SessionInfoUpdate>().size() == 1);
}

TEST_CASE("a title call that hangs is given up on in time, and the turn still ends", "[context][title]") {
  ContextFixture f([](AgentConfig& c) { c.context.titles = false; });
  FakeGeminiOptions options;
  options.titleReply = "";  // title calls go through the script
  f.server.setOptions(options);
  f.session->addHooks(std::make_shared<TitleWriter>(*f.session, std::chrono::milliseconds(200)));
  f.server.push(textReply("hello"));
  f.server.push(ScriptedReply::hang());
  f.server.push(textReply("hello again"));
  f.server.push(ScriptedReply::text("Greeting the agent"));
  REQUIRE(f.prompt("hi").value() == acp::StopReason::end_turn);
  CHECK(f.editor.all<acp::SessionInfoUpdate>().empty());
  // The next turn tries again (once the hanging call was given up on).
  REQUIRE(f.server.waitForRequests(2, std::chrono::seconds(10)));
  REQUIRE(f.prompt("hi again").value() == acp::StopReason::end_turn);
  auto updates = f.editor.waitFor<acp::SessionInfoUpdate>(1);
  REQUIRE(updates.size() == 1);
  CHECK(updates[0].title == "Greeting the agent");
}

TEST_CASE("the title window and clean-up", "[context][title]") {
  std::vector<Content> contents;
  for (int i = 0; i < 30; ++i) {
    contents.push_back({Role::user, {Part::makeText("question " + std::to_string(i))}});
    contents.push_back({Role::model, {Part::makeText(i == 0 ? std::string(900, 'z') : "answer " + std::to_string(i))}});
  }
  std::string window = titleWindow(contents);
  CHECK(window.rfind("User: question 0\n\nAssistant: zzz", 0) == 0);
  CHECK(window.find(std::string(500, 'z') + "...") != std::string::npos);
  CHECK(window.find(std::string(501, 'z')) == std::string::npos);
  CHECK(window.find("question 4\n") != std::string::npos);   // the first ten messages
  CHECK(window.find("question 5\n") == std::string::npos);
  CHECK(window.find("question 25") != std::string::npos);    // the last ten
  CHECK(window.find("answer 29") != std::string::npos);

  CHECK(cleanTitle("  \"Fix the   login\n timeout\"  ") == "Fix the login timeout");
  CHECK(cleanTitle("Title: Add CSV export") == "Add CSV export");
  CHECK(cleanTitle("   \n ").empty());
  std::string longTitle = cleanTitle(std::string(60, 'a') + " " + std::string(60, 'b'));
  CHECK(longTitle.size() <= 80);
  CHECK(longTitle == std::string(60, 'a'));
}
