// What the scheduler tests share: fake tools (an edit, a reader, one that
// meets others to prove calls run in parallel), a call for them, and a
// scheduler over a fake editor. Test-only.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

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
