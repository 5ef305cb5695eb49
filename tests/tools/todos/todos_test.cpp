// write_todos: parameters as Gemini CLI's, at most one task in progress, the
// list replaced whole, and every call shown as a complete ACP plan.
#include <catch2/catch.hpp>

#include "tools/todos/todo_tools.h"

using namespace lathe;
using namespace lathe::tools;

namespace {

struct Todos {
  std::vector<acp::PlanUpdate> plans;
  std::unique_ptr<Tool> tool;

  Todos() {
    ToolContext context;
    context.showPlan = [this](const acp::PlanUpdate& plan) { plans.push_back(plan); };
    tool = makeWriteTodosTool(context);
  }

  BuildResult build(const std::string& args) { return tool->build(json::parse(args).value()); }

  ToolResult run(const std::string& args) {
    auto built = build(args);
    REQUIRE(built.invocation);
    return built.invocation->execute(CancelToken(), {});
  }
};

}  // namespace

TEST_CASE("write_todos: the list becomes a complete plan and the model reads it back", "[todos]") {
  Todos t;
  CHECK(t.tool->kind() == Kind::think);
  auto result = t.run(R"({"todos":[{"description":"Read the code","status":"completed"},
                                   {"description":"Fix the bug","status":"in_progress"},
                                   {"description":"Write a test","status":"pending"},
                                   {"description":"Port to Windows","status":"cancelled"},
                                   {"description":"Ask for the key","status":"blocked"}]})");
  REQUIRE_FALSE(result.error);
  REQUIRE(t.plans.size() == 1);
  const auto& entries = t.plans[0].entries;
  REQUIRE(entries.size() == 5);
  CHECK(entries[0].content == "Read the code");
  CHECK(entries[0].status == acp::PlanEntryStatus::completed);
  CHECK(entries[1].status == acp::PlanEntryStatus::in_progress);
  CHECK(entries[2].status == acp::PlanEntryStatus::pending);
  // ACP has no cancelled or blocked: finished resp. still to do, and the text says which.
  CHECK(entries[3].content == "Port to Windows (cancelled)");
  CHECK(entries[3].status == acp::PlanEntryStatus::completed);
  CHECK(entries[4].content == "Ask for the key (blocked)");
  CHECK(entries[4].status == acp::PlanEntryStatus::pending);
  for (const auto& e : entries) CHECK(e.priority == acp::PlanEntryPriority::medium);
  REQUIRE(result.llmContent.size() == 1);
  CHECK_THAT(result.llmContent[0].text, Catch::Contains("5 item(s)") && Catch::Contains("2. [in_progress] Fix the bug") &&
                                            Catch::Contains("4. [cancelled] Port to Windows"));
  auto wire = acp::sessionNotification("s", t.plans[0]).text;
  CHECK_THAT(wire, Catch::Contains(R"("sessionUpdate":"plan","entries":[{"content":"Read the code","priority":"medium","status":"completed"})"));
}

TEST_CASE("write_todos: a second call replaces the list, and an empty one clears it", "[todos]") {
  Todos t;
  t.run(R"({"todos":[{"description":"a","status":"pending"},{"description":"b","status":"pending"}]})");
  t.run(R"({"todos":[{"description":"c","status":"in_progress"}]})");
  REQUIRE(t.plans.size() == 2);
  REQUIRE(t.plans[1].entries.size() == 1);
  CHECK(t.plans[1].entries[0].content == "c");
  auto cleared = t.run(R"({"todos":[]})");
  REQUIRE(t.plans.size() == 3);
  CHECK(t.plans[2].entries.empty());
  CHECK(cleared.llmContent[0].text == "The todo list is now empty.");
}

TEST_CASE("write_todos: bad lists are clear errors and show nothing", "[todos]") {
  Todos t;
  auto two = t.build(R"({"todos":[{"description":"a","status":"in_progress"},{"description":"b","status":"in_progress"}]})");
  REQUIRE(two.error);
  CHECK(two.error->type == ErrorType::invalid_params);
  CHECK_THAT(two.error->message, Catch::Contains("only one task may be \"in_progress\""));
  auto empty = t.build(R"({"todos":[{"description":"  ","status":"pending"}]})");
  REQUIRE(empty.error);
  CHECK_THAT(empty.error->message, Catch::Contains("description") && Catch::Contains("empty"));
  auto status = t.build(R"({"todos":[{"description":"a","status":"done"}]})");
  REQUIRE(status.error);
  auto missing = t.build(R"({})");
  REQUIRE(missing.error);
  CHECK(t.plans.empty());
}
