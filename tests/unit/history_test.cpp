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
