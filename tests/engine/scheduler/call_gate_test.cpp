// The tool scheduler with what decides around it: answers kept beyond the
// session, policy rules that ask, and the call gate (the person's hooks).
#include "tests/engine/scheduler/scheduler_fixture.h"

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
