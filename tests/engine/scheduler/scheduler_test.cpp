// The tool scheduler: approval flow, fail-closed permission, order, tail calls, live output.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "engine/scheduler/changed_region.h"
#include "engine/scheduler/tool_scheduler.h"
#include "tests/engine/session/fake_editor.h"

using namespace lathe;
using namespace lathe::engine;

namespace {

constexpr const char* kSchema = R"({"type":"object","properties":{"path":{"type":"string"}}})";
// The fake edit's change: its first changed line is 2.
constexpr const char* kOldText = "same\nold\n";
constexpr const char* kNewText = "same\nnew\n";

// A timed latch: runs that meet here prove they overlapped; a run that waits
// in vain (the calls ran one by one) records it.
struct Meeting {
  explicit Meeting(int count) : expected(count) {}
  int expected;
  std::mutex mutex;
  std::condition_variable cv;
  int arrived = 0;
  bool missed = false;
  void arriveAndWait() {
    std::unique_lock lock(mutex);
    ++arrived;
    cv.notify_all();
    if (!cv.wait_for(lock, std::chrono::seconds(10), [&] { return arrived >= expected; })) missed = true;
  }
};

// An edit-like tool that needs confirmation and counts its runs.
class FakeTool final : public tools::Tool {
 public:
  struct Behaviour {
    explicit Behaviour(bool needsConfirmation = true) : confirm(needsConfirmation) {}
    bool confirm;
    std::optional<tools::TailCall> tail;
    std::vector<std::string> liveOutput;
    std::chrono::milliseconds sleep{0};  // simulated work, so that overlapping runs overlap in time
    std::shared_ptr<struct Meeting> meeting;  // every run waits here for the others
    bool showsDiff = false;                   // the result is the diff (as the edit tools')
    std::vector<std::string> notes;           // shown with the result
    std::string sensitive;                    // why the edit is asked about even when edits are allowed
  };
  FakeTool(std::string name, tools::Kind kind, Behaviour behaviour)
      : Tool(tools::ToolInfo{.name = std::move(name),
                             .displayName = "Fake",
                             .description = "a fake",
                             .kind = kind,
                             .parametersSchema = kSchema,
                             .canUpdateOutput = true}),
        behaviour_(behaviour) {}
  mutable std::atomic<int> runs{0};
  mutable std::atomic<int> concurrent{0};
  mutable std::atomic<int> maxConcurrent{0};

 protected:
  tools::BuildResult createInvocation(const json::Value& params) const override {
    std::string path = json::getStr(params, "path").value_or("/w/file.txt");
    return {std::make_unique<Invocation>(*this, path), std::nullopt};
  }

 private:
  class Invocation final : public tools::ToolInvocation {
   public:
    Invocation(const FakeTool& tool, std::string path) : tool_(tool), path_(std::move(path)) {}
    std::string description() const override { return path_; }
    Result<std::optional<tools::ConfirmationDetails>> shouldConfirmExecute(const CancelToken&) override {
      if (!tool_.behaviour_.confirm) return std::optional<tools::ConfirmationDetails>{};
      return std::optional<tools::ConfirmationDetails>{
          tools::EditConfirmation{"Edit", tools::FileDiff{path_, std::string(kOldText), kNewText}, tool_.behaviour_.sensitive}};
    }
    tools::ToolResult execute(const CancelToken&, const tools::OutputSink& output) override {
      int now = ++tool_.concurrent;
      int prev = tool_.maxConcurrent.load();
      while (now > prev && !tool_.maxConcurrent.compare_exchange_weak(prev, now)) {}
      for (const auto& line : tool_.behaviour_.liveOutput) {
        output(line);
        // Output spaced in time: what is tested is the 200 ms throttle, not synchronisation.
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
      }
      if (tool_.behaviour_.meeting) tool_.behaviour_.meeting->arriveAndWait();
      std::this_thread::sleep_for(tool_.behaviour_.sleep);  // work, not synchronisation
      --tool_.concurrent;
      ++tool_.runs;
      auto result = tools::ToolResult::text("ran " + path_, "ran");
      result.tailToolCallRequest = tool_.behaviour_.tail;
      if (tool_.behaviour_.showsDiff) result.returnDisplay = tools::FileDiff{path_, std::string(kOldText), kNewText};
      result.displayNotes = tool_.behaviour_.notes;
      return result;
    }

   private:
    const FakeTool& tool_;
    std::string path_;
  };
  Behaviour behaviour_;
};

using testing::FakeEditor;
Result<acp::RequestPermissionResponse> select(const std::string& optionId) { return FakeEditor::select(optionId); }

FunctionCall callOf(const std::string& name, const std::string& path = "/w/file.txt") {
  return FunctionCall{"", name, json::Raw{"{\"path\":\"" + path + "\"}"}};
}

std::string responseText(const Part& part) { return part.functionResponse->response.text; }

struct Fixture {
  tools::ToolRegistry registry;
  FakeEditor editor;
  std::atomic<ApprovalMode> mode{ApprovalMode::standard};
  FakeTool* edit = nullptr;
  FakeTool* reader = nullptr;
  std::unique_ptr<ToolScheduler> scheduler;
  explicit Fixture(FakeTool::Behaviour editBehaviour = FakeTool::Behaviour(), FakeTool::Behaviour readBehaviour = FakeTool::Behaviour(false)) {
    auto e = std::make_unique<FakeTool>("fake_edit", tools::Kind::edit, editBehaviour);
    auto r = std::make_unique<FakeTool>("fake_read", tools::Kind::read, readBehaviour);
    edit = e.get();
    reader = r.get();
    (void)registry.add(std::move(e));
    (void)registry.add(std::move(r));
    scheduler = std::make_unique<ToolScheduler>(registry, editor, "s", mode);
  }
};

}  // namespace

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

namespace {

// Kept answers in memory: what was kept, and whether keeping fails.
struct FakeKept final : KeptAnswers {
  std::vector<KeptAnswer> kept;
  bool fails = false;
  bool everywhere = true;
  std::shared_ptr<const PolicyRules> rules() override { return std::make_shared<PolicyRules>(); }
  bool canKeep(Lasting where) const override { return where != Lasting::everywhere || everywhere; }
  Result<std::string> keep(const KeptAnswer& answer) override {
    if (fails) return makeError(Errc::internal, "the disk is full");
    kept.push_back(answer);
    return std::string("Kept it.");
  }
};

std::vector<std::string> optionIdsOf(const acp::RequestPermissionRequest& ask) {
  std::vector<std::string> ids;
  for (const auto& option : ask.options) ids.push_back(option.optionId);
  return ids;
}

std::string lastContent(FakeEditor& editor) {
  const auto updates = editor.all<acp::ToolCallUpdate>();
  std::string text;
  if (!updates.empty() && updates.back().content) {
    for (const auto& item : *updates.back().content) text += item.text + "\n";
  }
  return text;
}

}  // namespace

TEST_CASE("answers kept beyond the session: offered after the session's, kept as the keys shown, told on the call") {
  Fixture f;
  auto kept = std::make_shared<FakeKept>();
  f.scheduler->setKeptAnswers(kept);
  f.editor.answer = [](auto&) { return select("allow_workspace_file"); };
  f.scheduler->run({callOf("fake_edit", "/w/a")}, CancelToken());
  REQUIRE(f.editor.asked.size() == 1);
  // A file is one workspace's: no "every workspace" for it; all edits are for the session only.
  CHECK(optionIdsOf(f.editor.asked[0]) ==
        std::vector<std::string>{"allow_once", "allow_always_file", "allow_always_edits", "allow_workspace_file", "reject_once"});
  REQUIRE(kept->kept.size() == 1);
  CHECK(kept->kept[0].where == Lasting::workspace);
  CHECK(kept->kept[0].keys == std::vector<ApprovalKey>{{ApprovalKind::edit, "/w/a"}});
  CHECK(lastContent(f.editor).find("Kept it.") != std::string::npos);
  CHECK(f.scheduler->sessionAnswers().empty());  // kept, not a session answer
  CHECK(f.edit->runs == 1);

  // When it cannot be kept, the call still runs and the answer holds for the session.
  kept->fails = true;
  f.scheduler->run({callOf("fake_edit", "/w/b")}, CancelToken());
  CHECK(lastContent(f.editor).find("Allowed for this session only: the answer could not be kept (the disk is full).") !=
        std::string::npos);
  CHECK(f.scheduler->sessionAnswers().contains({ApprovalKind::edit, "/w/b"}));
  f.scheduler->run({callOf("fake_edit", "/w/b")}, CancelToken());
  CHECK(f.editor.asked.size() == 2);
  CHECK(f.scheduler->forget({ApprovalKind::edit, "/w/b"}));
  f.scheduler->run({callOf("fake_edit", "/w/b")}, CancelToken());
  CHECK(f.editor.asked.size() == 3);  // forgotten: asked again
  CHECK(f.edit->runs == 4);
}

TEST_CASE("a policy rule asks about a tool that asks nothing itself, and answers it outranks are not offered") {
  auto kept = std::make_shared<FakeKept>();
  Fixture f;
  auto rule = std::make_shared<PolicyRules>();
  rule->rules.emplace_back();
  PolicyRule& asks = rule->rules.back();
  asks.toolNames = {"fake_read"};
  asks.decision = PolicyDecision::askUser;
  asks.priority = 10;
  asks.origin = {PolicyTier::user, "/home/me/.gemini/policies/p.toml", 1, 1, "", ""};
  SessionApprovals granted;
  granted.policies.push_back(rule);
  f.scheduler->grant(granted);
  f.scheduler->setKeptAnswers(kept);
  f.editor.answer = [](auto&) { return select("allow_once"); };
  f.scheduler->run({callOf("fake_read")}, CancelToken());
  REQUIRE(f.editor.asked.size() == 1);
  // Nothing outranks your own rule: no "always" is offered.
  CHECK(optionIdsOf(f.editor.asked[0]) == std::vector<std::string>{"allow_once", "reject_once"});
  REQUIRE(f.editor.asked[0].toolCall.content);
  CHECK((*f.editor.asked[0].toolCall.content)[0].text == "Run Fake: /w/file.txt?");
  CHECK((*f.editor.asked[0].toolCall.content)[1].text ==
        "Asked because of your policy rule 1 (line 1) of /home/me/.gemini/policies/p.toml.");
  CHECK(f.reader->runs == 1);

  // A workspace's question at priority 960 is outranked by this session's
  // answer and one kept for every workspace (4.950), not by one kept for the
  // workspace (3.950 < 3.960).
  asks.origin.tier = PolicyTier::workspace;
  asks.priority = 960;
  f.scheduler->run({callOf("fake_read")}, CancelToken());
  REQUIRE(f.editor.asked.size() == 2);
  CHECK(optionIdsOf(f.editor.asked[1]) ==
        std::vector<std::string>{"allow_once", "allow_always_tool", "allow_everywhere_tool", "reject_once"});
}

namespace {

// A gate with scripted verdicts that records what it heard.
struct FakeGate final : CallGate {
  BeforeCall before;
  AfterCall after;
  std::vector<HookNote> asked;
  std::vector<std::string> beforeArgs;
  std::vector<std::string> afterNames;
  int permissionsHeard = 0;
  BeforeCall beforeCall(const GatedCall& call, const CancelToken&) override {
    beforeArgs.push_back(call.args.text);
    return before;
  }
  AfterCall afterCall(const GatedCall& call, const tools::ToolResult&, const CancelToken&) override {
    afterNames.push_back(call.name + (call.originalName.empty() ? "" : "<-" + call.originalName));
    AfterCall out = after;
    after = {};  // once: a tail call is not chained again
    return out;
  }
  std::vector<HookNote> onPermissionAsked(const tools::ConfirmationDetails&, const std::string&, const CancelToken&) override {
    ++permissionsHeard;
    return asked;
  }
};

HookNote note(const std::string& decision, const std::string& message) { return {"guard", "BeforeTool", decision, message}; }

}  // namespace

TEST_CASE("call gate: a refusal or a stop keeps the call from running, told to the model and on the card") {
  for (auto action : {BeforeCall::Action::refuse, BeforeCall::Action::stop}) {
    Fixture f;
    f.mode = ApprovalMode::yolo;
    FakeGate gate;
    gate.before.action = action;
    gate.before.reason = "not here";
    gate.before.notes = {note("blocked", "not here")};
    f.scheduler->setGate(&gate);
    auto parts = f.scheduler->run({callOf("fake_edit")}, CancelToken());
    CHECK(f.edit->runs == 0);
    CHECK_THAT(responseText(parts[0]), Catch::Contains(action == BeforeCall::Action::refuse ? "Tool execution blocked: not here"
                                                                                         : "Agent execution stopped by hook: not here"));
    auto final = f.editor.all<acp::ToolCallUpdate>().back();
    CHECK(*final.status == acp::ToolCallStatus::failed);
    CHECK(final.content->back().text == "Hook guard (BeforeTool) blocked: not here");
    CHECK_THAT(final.meta.text, Catch::Contains(R"("decision":"blocked")"));
    CHECK(gate.afterNames.empty());
  }
}

TEST_CASE("call gate: changed arguments are built, judged and shown again, and the model is told") {
  Fixture f(FakeTool::Behaviour(false));
  FakeGate gate;
  gate.before.args = json::Raw{R"({"path":"/w/other.txt"})"};
  f.scheduler->setGate(&gate);
  auto parts = f.scheduler->run({callOf("fake_edit", "/w/file.txt")}, CancelToken());
  CHECK(f.edit->runs == 1);
  CHECK_THAT(responseText(parts[0]), Catch::Contains("ran /w/other.txt"));
  CHECK_THAT(responseText(parts[0]), Catch::Contains("A hook changed these arguments before the call ran: path"));
  bool shown = false;
  for (const auto& update : f.editor.all<acp::ToolCallUpdate>()) {
    shown = shown || update.rawInput.text == R"({"path":"/w/other.txt"})";
  }
  CHECK(shown);
  // Arguments the tool refuses never run.
  gate.before.args = json::Raw{R"({"path":7})"};
  parts = f.scheduler->run({callOf("fake_edit")}, CancelToken());
  CHECK(f.edit->runs == 1);
  CHECK_THAT(responseText(parts[0]), Catch::Contains("Tool parameter modification by hook failed validation"));
}

TEST_CASE("call gate: a hook that asks overrules an allow (never a deny), and hears the question") {
  Fixture f(FakeTool::Behaviour(false), FakeTool::Behaviour(false));
  f.mode = ApprovalMode::yolo;
  FakeGate gate;
  gate.before.ask = true;
  gate.before.notes = {note("asked for your approval", "look first")};
  gate.asked = {HookNote{"log", "Notification", "ran", "heard"}};
  f.scheduler->setGate(&gate);
  f.editor.answer = [](auto&) { return select("reject_once"); };
  f.scheduler->run({callOf("fake_read")}, CancelToken());
  CHECK(f.reader->runs == 0);
  REQUIRE(f.editor.asked.size() == 1);
  std::string shown;
  for (const auto& item : *f.editor.asked[0].toolCall.content) shown += item.text + "\n";
  CHECK_THAT(shown, Catch::Contains("A hook asks you to confirm this call"));
  CHECK_THAT(shown, Catch::Contains("Hook guard (BeforeTool) asked for your approval: look first"));
  CHECK_THAT(shown, Catch::Contains("Hook log (Notification) ran: heard"));
  CHECK(gate.permissionsHeard == 1);
  f.mode = ApprovalMode::plan;  // plan mode refuses edits: the ask does not turn that into a question
  f.scheduler->run({callOf("fake_edit")}, CancelToken());
  CHECK(f.editor.asked.size() == 1);
  CHECK(f.edit->runs == 0);
}

TEST_CASE("call gate: after a call, withhold its result, add to it, or chain a tail call") {
  Fixture f(FakeTool::Behaviour(false));
  FakeGate gate;
  f.scheduler->setGate(&gate);
  gate.after.action = AfterCall::Action::withhold;
  gate.after.reason = "private";
  auto parts = f.scheduler->run({callOf("fake_edit")}, CancelToken());
  CHECK(f.edit->runs == 1);
  CHECK(responseText(parts[0]) == R"({"error":"Tool result blocked: private"})");

  gate.after.addedContext = "<hook_context source=\"g (AfterTool)\">note</hook_context>";
  parts = f.scheduler->run({callOf("fake_edit")}, CancelToken());
  CHECK_THAT(responseText(parts[0]), Catch::Contains("ran /w/file.txt") && Catch::Contains("note</hook_context>"));

  gate.after.tail = tools::TailCall{"fake_read", json::Raw{R"({"path":"/w/tail.txt"})"}};
  parts = f.scheduler->run({callOf("fake_edit")}, CancelToken());
  CHECK_THAT(responseText(parts[0]), Catch::Contains("ran /w/tail.txt"));
  CHECK(parts[0].functionResponse->name == "fake_edit");
  CHECK(gate.afterNames.back() == "fake_read<-fake_edit");  // the tail's hooks know the call it answers
}
