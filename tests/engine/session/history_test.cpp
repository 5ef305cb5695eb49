// The History invariant (every function call answered once, in the next user
// content) and its cheap checkpoints.
#include <catch2/catch.hpp>

#include "engine/session/history.h"

using namespace lathe;
using namespace lathe::engine;

namespace {

Part call(std::string name, std::string id = "") {
  Part p;
  p.functionCall = FunctionCall{std::move(id), std::move(name), json::Raw{"{}"}};
  return p;
}

Part response(std::string name, std::string id = "") {
  Part p;
  p.functionResponse = FunctionResponse{std::move(id), std::move(name), json::Raw{R"({"output":"ok"})"}};
  return p;
}

}  // namespace

TEST_CASE("history keeps every call paired with its response") {
  History h;
  REQUIRE(h.appendUser({Part::makeText("hi")}).ok());
  REQUIRE(h.appendModel({Role::model, {Part::makeText("looking"), call("glob", "a"), call("glob", "b")}}).ok());
  CHECK(h.pendingCalls().size() == 2);
  CHECK_FALSE(h.appendUser({Part::makeText("too early")}).ok());
  CHECK_FALSE(h.appendModel({Role::model, {Part::makeText("again")}}).ok());
  CHECK_FALSE(h.appendResponses({response("glob", "a")}).ok());                       // b unanswered
  CHECK_FALSE(h.appendResponses({response("glob", "a"), response("read_file", "x")}).ok());  // answers nothing
  REQUIRE(h.appendResponses({response("glob", "b"), response("glob", "a")}).ok());  // any order by id
  CHECK(h.pendingCalls().empty());
  REQUIRE(h.appendUser({Part::makeText("next")}).ok());
  REQUIRE(h.size() == 3);
  CHECK(h.contents()[2].parts.size() == 3);  // responses and the next prompt share the user content
  CHECK_FALSE(h.appendUser({call("glob")}).ok());
  CHECK_FALSE(h.appendModel({Role::model, {response("glob")}}).ok());
}

TEST_CASE("calls without ids are matched by name, in order") {
  History h;
  REQUIRE(h.appendUser({Part::makeText("hi")}).ok());
  REQUIRE(h.appendModel({Role::model, {call("ls"), call("cat")}}).ok());
  CHECK_FALSE(h.appendResponses({response("ls"), response("ls")}).ok());
  REQUIRE(h.appendResponses({response("ls"), response("cat")}).ok());
}

TEST_CASE("rollback returns to a checkpoint, merged user parts included") {
  History h;
  REQUIRE(h.appendUser({Part::makeText("one")}).ok());
  REQUIRE(h.appendModel({Role::model, {call("ls")}}).ok());
  REQUIRE(h.appendResponses({response("ls")}).ok());
  auto mark = h.checkpoint();
  REQUIRE(h.appendUser({Part::makeText("two")}).ok());  // merged into the responses' content
  REQUIRE(h.appendModel({Role::model, {call("cat")}}).ok());
  h.rollback(mark);
  REQUIRE(h.size() == 3);
  CHECK(h.contents()[2].parts.size() == 1);
  CHECK(h.pendingCalls().empty());
  REQUIRE(h.appendUser({Part::makeText("three")}).ok());
  History empty;
  auto start = empty.checkpoint();
  REQUIRE(empty.appendUser({Part::makeText("x")}).ok());
  empty.rollback(start);
  CHECK(empty.empty());
}

TEST_CASE("replacePrefix swaps old exchanges for a snapshot and keeps the invariant") {
  History h;
  REQUIRE(h.appendUser({Part::makeText("one")}).ok());
  REQUIRE(h.appendModel({Role::model, {call("ls")}}).ok());
  REQUIRE(h.appendResponses({response("ls")}).ok());
  REQUIRE(h.appendModel({Role::model, {Part::makeText("done")}}).ok());
  REQUIRE(h.appendUser({Part::makeText("two")}).ok());
  REQUIRE(h.appendModel({Role::model, {Part::makeText("ok")}}).ok());
  const uint64_t before = h.revision();
  std::vector<Content> snapshot{{Role::user, {Part::makeText("state")}}, {Role::model, {Part::makeText("noted")}}};

  CHECK_FALSE(h.replacePrefix(2, snapshot).ok());   // would split ls from its response
  CHECK_FALSE(h.replacePrefix(9, snapshot).ok());   // more than there is
  CHECK_FALSE(h.replacePrefix(4, {{Role::user, {Part::makeText("x")}}}).ok());  // two user contents in a row
  CHECK_FALSE(h.replacePrefix(4, {{Role::model, {call("ls")}}}).ok());
  CHECK(h.revision() == before);
  CHECK(h.size() == 6);

  REQUIRE(h.replacePrefix(4, snapshot).ok());
  CHECK(h.revision() != before);
  REQUIRE(h.size() == 4);
  CHECK(h.contents()[0].parts[0].text == "state");
  CHECK(h.contents()[2].parts[0].text == "two");
  REQUIRE(h.appendUser({Part::makeText("three")}).ok());
}

TEST_CASE("rewriteResponses edits payloads newest first, keeps ids and names, and counts as an edit only when it changed something") {
  History h;
  REQUIRE(h.appendUser({Part::makeText("hi")}).ok());
  REQUIRE(h.appendModel({Role::model, {call("glob", "a")}}).ok());
  REQUIRE(h.appendResponses({response("glob", "a")}).ok());
  REQUIRE(h.appendModel({Role::model, {call("read_file", "b")}}).ok());
  REQUIRE(h.appendResponses({response("read_file", "b")}).ok());
  const uint64_t start = h.revision();
  h.rewriteResponses([](json::Raw&) { return History::Edit::kept; });
  CHECK(h.revision() == start);
  int seen = 0;
  h.rewriteResponses([&](json::Raw& payload) {
    if (++seen == 2) return History::Edit::stop;
    payload.text = R"({"output":"short"})";
    return History::Edit::changed;
  });
  CHECK(h.revision() != start);
  CHECK(h.contents()[4].parts[0].functionResponse->response.text == R"({"output":"short"})");  // the newest
  CHECK(h.contents()[4].parts[0].functionResponse->name == "read_file");
  CHECK(h.contents()[4].parts[0].functionResponse->id == "b");
  CHECK(h.contents()[2].parts[0].functionResponse->response.text == R"({"output":"ok"})");  // stopped before it
  REQUIRE(h.appendUser({Part::makeText("next")}).ok());  // the invariant still holds
}
