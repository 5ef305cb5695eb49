// The tool scheduler: approval flow, fail-closed permission, order, tail calls, live output.
#include "engine/scheduler/changed_region.h"
#include "tests/engine/scheduler/scheduler_fixture.h"

TEST_CASE("an approved edit runs, the request carries the diff and the pending tool call") {
  Fixture f;
  f.editor.answer = [](auto&) { return select("allow_once"); };
  auto parts = f.scheduler->run({callOf("fake_edit")}, CancelToken());
  CHECK(f.edit->runs == 1);
  REQUIRE(f.editor.asked.size() == 1);
  const auto& ask = f.editor.asked[0];
  CHECK(ask.toolCall.status == acp::ToolCallStatus::pending);
  REQUIRE(ask.toolCall.content);
  REQUIRE(ask.toolCall.content->size() == 1);
  CHECK((*ask.toolCall.content)[0].type == acp::ToolCallContent::Type::diff);
  CHECK((*ask.toolCall.content)[0].path == "/w/file.txt");
  CHECK(responseText(parts[0]).find("ran /w/file.txt") != std::string::npos);
  CHECK(*f.editor.all<acp::ToolCallUpdate>().back().status == acp::ToolCallStatus::completed);
}

TEST_CASE("a rejection is told to the model and nothing runs") {
  Fixture f;
  f.editor.answer = [](auto&) { return select("reject_once"); };
  auto parts = f.scheduler->run({callOf("fake_edit")}, CancelToken());
  CHECK(f.edit->runs == 0);
  CHECK(responseText(parts[0]).find("rejected") != std::string::npos);
  CHECK(*f.editor.all<acp::ToolCallUpdate>().back().status == acp::ToolCallStatus::failed);
}

TEST_CASE("permission fails closed: errors, cancelled outcomes and unknown options mean no") {
  for (int variant = 0; variant < 3; ++variant) {
    Fixture f;
    f.editor.answer = [variant](auto&) -> Result<acp::RequestPermissionResponse> {
      if (variant == 0) return makeError(Errc::timeout, "no answer in time");
      if (variant == 1) return acp::RequestPermissionResponse{};  // cancelled outcome
      return select("proceed_always_and_forever");
    };
    auto parts = f.scheduler->run({callOf("fake_edit")}, CancelToken());
    INFO("variant " << variant);
    CHECK(f.edit->runs == 0);
    CHECK(responseText(parts[0]).rfind("{\"error\"", 0) == 0);
  }
}

TEST_CASE("allow always for a file is remembered for that file only") {
  Fixture f;
  f.editor.answer = [](auto&) { return select("allow_always_file"); };
  f.scheduler->run({callOf("fake_edit", "/w/a")}, CancelToken());
  f.scheduler->run({callOf("fake_edit", "/w/a")}, CancelToken());
  CHECK(f.editor.asked.size() == 1);
  f.scheduler->run({callOf("fake_edit", "/w/b")}, CancelToken());
  CHECK(f.editor.asked.size() == 2);
  CHECK(f.edit->runs == 3);
}

TEST_CASE("allow all edits: later edits to other files are not asked, plan mode still refuses") {
  Fixture f;
  f.editor.answer = [](auto&) { return select("allow_always_edits"); };
  f.scheduler->run({callOf("fake_edit", "/w/a")}, CancelToken());
  REQUIRE(f.editor.asked.size() == 1);
  f.scheduler->run({callOf("fake_edit", "/w/b")}, CancelToken());
  f.scheduler->run({callOf("fake_edit", "/w/sub/c")}, CancelToken());
  CHECK(f.editor.asked.size() == 1);
  CHECK(f.edit->runs == 3);
  // The session's mode is unchanged: plan mode still refuses edits.
  f.mode = ApprovalMode::plan;
  f.scheduler->run({callOf("fake_edit", "/w/d")}, CancelToken());
  CHECK(f.edit->runs == 3);
}

TEST_CASE("modes: yolo and autoEdit run edits without asking, plan refuses them") {
  Fixture f;
  f.editor.answer = [](auto&) { return select("reject_once"); };
  f.mode = ApprovalMode::autoEdit;
  f.scheduler->run({callOf("fake_edit")}, CancelToken());
  f.mode = ApprovalMode::yolo;
  f.scheduler->run({callOf("fake_edit")}, CancelToken());
  CHECK(f.editor.asked.empty());
  CHECK(f.edit->runs == 2);
  f.mode = ApprovalMode::plan;
  auto parts = f.scheduler->run({callOf("fake_edit"), callOf("fake_read")}, CancelToken());
  CHECK(f.edit->runs == 2);
  CHECK(f.reader->runs == 1);
  CHECK(responseText(parts[0]).find("Refused: the session is in plan mode, which allows only read-only tools. "
                                   "Describe the change instead of making it.") != std::string::npos);
  auto updates = f.editor.all<acp::ToolCallUpdate>();
  CHECK(std::any_of(updates.begin(), updates.end(), [](const acp::ToolCallUpdate& update) {
    return update.content && update.content->size() == 1 &&
           (*update.content)[0].text == "Not run: plan mode allows only read-only tools.";
  }));
}

TEST_CASE("an edit that changes how tools run is asked about even in autoEdit, and the question says why") {
  FakeTool::Behaviour hook;
  hook.sensitive = "it is inside .git/";
  Fixture f(hook);
  f.mode = ApprovalMode::autoEdit;
  f.editor.answer = [](auto&) { return select("allow_once"); };
  f.scheduler->run({callOf("fake_edit", "/w/.git/hooks/pre-commit")}, CancelToken());
  CHECK(f.edit->runs == 1);
  REQUIRE(f.editor.asked.size() == 1);
  const auto& content = f.editor.asked[0].toolCall.content;
  REQUIRE(content);
  REQUIRE(content->size() == 2);
  CHECK((*content)[0].type == acp::ToolCallContent::Type::diff);
  CHECK((*content)[1].text == "Asked even when edits are allowed: it is inside .git/.");
}

TEST_CASE("read-only calls run in parallel, mutators alone, answers in call order") {
  FakeTool::Behaviour slowRead(false);
  slowRead.meeting = std::make_shared<Meeting>(3);
  FakeTool::Behaviour slowEdit(false);
  slowEdit.sleep = std::chrono::milliseconds(50);
  Fixture f(slowEdit, slowRead);
  auto parts = f.scheduler->run({callOf("fake_read", "/r1"), callOf("fake_read", "/r2"), callOf("fake_read", "/r3"),
                                 callOf("fake_edit", "/e1"), callOf("fake_edit", "/e2")},
                                CancelToken());
  CHECK_FALSE(slowRead.meeting->missed);  // all three reads were running at once
  CHECK(f.reader->maxConcurrent == 3);
  CHECK(f.edit->maxConcurrent == 1);
  REQUIRE(parts.size() == 5);
  const char* expected[] = {"/r1", "/r2", "/r3", "/e1", "/e2"};
  for (int i = 0; i < 5; ++i) CHECK(responseText(parts[i]).find(expected[i]) != std::string::npos);
}

TEST_CASE("a tail call runs right after and answers the original call") {
  FakeTool::Behaviour withTail(false);
  withTail.tail = tools::TailCall{"fake_read", json::Raw{R"({"path":"/tail"})"}};
  Fixture f(withTail);
  auto parts = f.scheduler->run({FunctionCall{"id-1", "fake_edit", json::Raw{R"({"path":"/first"})"}}}, CancelToken());
  CHECK(f.edit->runs == 1);
  CHECK(f.reader->runs == 1);
  REQUIRE(parts.size() == 1);
  CHECK(parts[0].functionResponse->name == "fake_edit");
  CHECK(parts[0].functionResponse->id == "id-1");
  CHECK(responseText(parts[0]).find("ran /tail") != std::string::npos);
}

TEST_CASE("live output becomes throttled tool_call_update content") {
  FakeTool::Behaviour live(false);
  live.liveOutput = {"line 1", "line 1\nline 2", "line 1\nline 2\nline 3"};
  Fixture f(live);
  f.scheduler->run({callOf("fake_edit")}, CancelToken());
  int contentUpdates = 0;
  for (const auto& u : f.editor.all<acp::ToolCallUpdate>()) {
    if (!u.status && u.content) ++contentUpdates;
  }
  CHECK(contentUpdates == 3);  // 250 ms apart: none swallowed by the 200 ms throttle
}

TEST_CASE("cancel before a call runs answers it as cancelled") {
  Fixture f;
  auto token = CancelToken::create();
  token.cancel();
  auto parts = f.scheduler->run({callOf("fake_read")}, token);
  CHECK(f.reader->runs == 0);
  CHECK(responseText(parts[0]).find("Cancelled") != std::string::npos);
}

TEST_CASE("what the person sees: a human sentence on rejection, rawOutput, fenced raw output, the edit's line") {
  Fixture f;
  f.editor.answer = [](auto&) { return select("reject_once"); };
  auto parts = f.scheduler->run({callOf("fake_edit")}, CancelToken());
  auto rejected = f.editor.all<acp::ToolCallUpdate>().back();
  REQUIRE(rejected.content);
  CHECK((*rejected.content)[0].text == "You rejected this call; it did not run.");
  CHECK_THAT(responseText(parts[0]), Catch::Contains("Do not retry"));
  CHECK_THAT(rejected.rawOutput.text, Catch::Contains("Do not retry"));

  f.editor.answer = [](auto&) { return select("allow_once"); };
  f.scheduler->run({callOf("fake_edit")}, CancelToken());
  REQUIRE(f.editor.asked.size() == 2);
  REQUIRE(f.editor.asked[1].toolCall.locations);
  CHECK((*f.editor.asked[1].toolCall.locations)[0].line == 2);
  auto done = f.editor.all<acp::ToolCallUpdate>().back();
  CHECK(done.rawOutput.text == R"({"output":"ran /w/file.txt"})");
}

namespace {

// Output that is not Markdown, with a backtick run inside.
class RawTool final : public tools::Tool {
 public:
  RawTool()
      : Tool(tools::ToolInfo{.name = "raw",
                             .displayName = "Raw",
                             .description = "raw output",
                             .kind = tools::Kind::read,
                             .parametersSchema = kSchema,
                             .isOutputMarkdown = false}) {}

 protected:
  tools::BuildResult createInvocation(const json::Value&) const override {
    struct Run final : tools::ToolInvocation {
      std::string description() const override { return "raw"; }
      tools::ToolResult execute(const CancelToken&, const tools::OutputSink&) override {
        return tools::ToolResult::text("# title\n| a | b |", "# title\n```x```\n| a | b |");
      }
    };
    return {std::make_unique<Run>(), std::nullopt};
  }
};

}  // namespace

TEST_CASE("raw tool output reaches the editor fenced, longer than any backtick run inside") {
  tools::ToolRegistry registry;
  (void)registry.add(std::make_unique<RawTool>());
  FakeEditor editor;
  std::atomic<ApprovalMode> mode{ApprovalMode::standard};
  ToolScheduler scheduler(registry, editor, "s", mode);
  scheduler.run({FunctionCall{"", "raw", json::Raw{"{}"}}}, CancelToken());
  auto done = editor.all<acp::ToolCallUpdate>().back();
  REQUIRE(done.content);
  CHECK((*done.content)[0].text == "````\n# title\n```x```\n| a | b |\n````");
}

TEST_CASE("a thousand read-only calls run on a bounded set of workers, answered in order") {
  FakeTool::Behaviour read(false);
  read.sleep = std::chrono::milliseconds(1);
  Fixture f(FakeTool::Behaviour(), read);
  std::vector<FunctionCall> calls;
  for (int i = 0; i < 1000; ++i) calls.push_back(callOf("fake_read", "/r" + std::to_string(i)));
  auto parts = f.scheduler->run(calls, CancelToken());
  REQUIRE(parts.size() == 1000);
  CHECK(f.reader->runs == 1000);
  CHECK(f.reader->maxConcurrent <= 8);
  CHECK(f.reader->maxConcurrent > 1);
  CHECK_THAT(responseText(parts[999]), Catch::Contains("/r999"));
}

TEST_CASE("a permission question the editor cancels ends the run, later calls are not asked") {
  Fixture f;
  f.editor.answer = [](auto&) { return Result<acp::RequestPermissionResponse>(acp::RequestPermissionResponse{}); };
  auto parts = f.scheduler->run({callOf("fake_edit", "/a"), callOf("fake_edit", "/b")}, CancelToken());
  CHECK(f.scheduler->cancelledByPerson());
  CHECK(f.edit->runs == 0);
  CHECK(f.editor.asked.size() == 1);
  REQUIRE(parts.size() == 2);
  CHECK_THAT(responseText(parts[1]), Catch::Contains("cancelled"));
}

TEST_CASE("an approved edit's diff travels once: the final update leaves the diff the question showed") {
  FakeTool::Behaviour behaviour;
  behaviour.showsDiff = true;
  Fixture f(behaviour);
  f.editor.answer = [](auto&) { return select("allow_once"); };
  f.scheduler->run({callOf("fake_edit")}, CancelToken());
  REQUIRE(f.editor.asked.size() == 1);
  REQUIRE(f.editor.asked[0].toolCall.content);
  const auto& shown = f.editor.asked[0].toolCall.content->front();
  CHECK(shown.type == acp::ToolCallContent::Type::diff);
  CHECK(shown.oldText == std::optional<std::string>(kOldText));
  CHECK(shown.newText == kNewText);
  auto done = f.editor.all<acp::ToolCallUpdate>().back();
  CHECK(*done.status == acp::ToolCallStatus::completed);
  CHECK_FALSE(done.content.has_value());  // ACP: an absent field keeps the content the question set
  REQUIRE(done.locations);
  CHECK((*done.locations)[0].path == "/w/file.txt");
  CHECK((*done.locations)[0].line == 2);
  CHECK(done.rawOutput.text == R"({"output":"ran /w/file.txt"})");
}

TEST_CASE("an edit that ran without a question carries its diff in the final update") {
  FakeTool::Behaviour behaviour;
  behaviour.showsDiff = true;
  Fixture f(behaviour);
  f.mode = ApprovalMode::autoEdit;
  f.scheduler->run({callOf("fake_edit")}, CancelToken());
  CHECK(f.editor.asked.empty());
  auto done = f.editor.all<acp::ToolCallUpdate>().back();
  REQUIRE(done.content);
  REQUIRE(done.content->size() == 1);
  CHECK(done.content->front().type == acp::ToolCallContent::Type::diff);
  CHECK(done.content->front().oldText == std::optional<std::string>(kOldText));
  CHECK(done.content->front().newText == kNewText);
  REQUIRE(done.locations);
  CHECK((*done.locations)[0].line == 2);
}

TEST_CASE("notes after an approved edit replace the content, so the diff is sent again with them") {
  FakeTool::Behaviour behaviour;
  behaviour.showsDiff = true;
  behaviour.notes = {"Syntax error at 2:1"};
  Fixture f(behaviour);
  f.editor.answer = [](auto&) { return select("allow_once"); };
  f.scheduler->run({callOf("fake_edit")}, CancelToken());
  auto done = f.editor.all<acp::ToolCallUpdate>().back();
  REQUIRE(done.content);
  REQUIRE(done.content->size() == 2);
  CHECK(done.content->front().type == acp::ToolCallContent::Type::diff);
  CHECK(done.content->front().newText == kNewText);
  CHECK((*done.content)[1].text == "Syntax error at 2:1");
}

TEST_CASE("wait_for_previous: a read-only call that sets it starts after the calls before it have finished") {
  FakeTool::Behaviour overlapping(false);
  overlapping.meeting = std::make_shared<Meeting>(2);  // the first two run together
  Fixture f(FakeTool::Behaviour(), overlapping);
  auto later = std::make_unique<FakeTool>("fake_read_later", tools::Kind::read, FakeTool::Behaviour(false));
  FakeTool* laterTool = later.get();
  (void)f.registry.add(std::move(later));
  FunctionCall waiting{"", "fake_read_later", json::Raw{R"({"path":"/w/c","wait_for_previous":true})"}};
  auto parts = f.scheduler->run({callOf("fake_read", "/w/a"), callOf("fake_read", "/w/b"), waiting}, CancelToken());
  REQUIRE(parts.size() == 3);
  CHECK_FALSE(overlapping.meeting->missed);
  CHECK(f.reader->runs == 2);
  CHECK(laterTool->runs == 1);
  CHECK(responseText(parts[2]).find("ran /w/c") != std::string::npos);
  // The waiting call was announced only once both others had completed.
  std::vector<std::string> order;
  for (const auto& u : f.editor.updates) {
    if (auto* call = std::get_if<acp::ToolCall>(&u)) order.push_back("start " + call->title);
    if (auto* done = std::get_if<acp::ToolCallUpdate>(&u); done && done->status == acp::ToolCallStatus::completed) {
      order.push_back("done");
    }
  }
  REQUIRE(order.size() == 6);
  CHECK(order[4] == "start Fake: /w/c");
  CHECK(order[2] == "done");
  CHECK(order[3] == "done");
}

TEST_CASE("a large edit's diff is cut to the changed region with whole lines of context", "[scheduler][diff]") {
  std::string before;
  for (int i = 0; i < 100'000; ++i) before += "line " + std::to_string(i) + "\n";
  std::string after = before;
  after.replace(after.find("line 50000\n"), 11, "line fifty thousand\nand one more\n");
  std::optional<std::string> oldText = before;
  std::string newText = after;
  const int64_t line = engine::narrowToChange(oldText, newText);
  CHECK(line == 50001 - engine::kRegionContextLines);
  REQUIRE(oldText);
  CHECK(oldText->rfind("line " + std::to_string(50000 - engine::kRegionContextLines) + "\n", 0) == 0);
  CHECK(newText.rfind("line " + std::to_string(50000 - engine::kRegionContextLines) + "\n", 0) == 0);
  CHECK(oldText->find("line 50000\n") != std::string::npos);
  CHECK(newText.find("line fifty thousand\nand one more\n") != std::string::npos);
  const std::string lastContext = "line " + std::to_string(50000 + engine::kRegionContextLines) + "\n";
  CHECK(oldText->ends_with(lastContext));
  CHECK(newText.ends_with(lastContext));
  CHECK(oldText->size() < 1000);

  // Small diffs, and new files, stay whole.
  std::optional<std::string> smallOld = std::string("a\nb\n");
  std::string smallNew = "a\nc\n";
  CHECK(engine::narrowToChange(smallOld, smallNew) == 1);
  CHECK(*smallOld == "a\nb\n");
  std::optional<std::string> none;
  std::string created = before;
  engine::narrowToChange(none, created);
  CHECK(created == before);

  // A change at the very start and at the very end.
  std::optional<std::string> head = before;
  std::string headNew = "first\n" + before;
  CHECK(engine::narrowToChange(head, headNew) == 1);
  CHECK(headNew.rfind("first\nline 0\n", 0) == 0);
  std::optional<std::string> tail = before;
  std::string tailNew = before + "last\n";
  engine::narrowToChange(tail, tailNew);
  CHECK(tailNew.ends_with("line 99999\nlast\n"));
  CHECK(tail->ends_with("line 99999\n"));
}
