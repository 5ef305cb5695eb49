// Tool call execution and its mapping to ACP tool_call / tool_call_update.
#include "engine/scheduler/tool_scheduler.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstring>

#include "engine/scheduler/call_content.h"
#include "engine/scheduler/call_state.h"
#include "engine/scheduler/hook_note.h"
#include "engine/scheduler/markdown_fence.h"
#include "engine/scheduler/permission_options.h"
#include "protocol/base/utf8.h"
#include "protocol/exec/task_group.h"
#include "tools/core/terminal_view.h"
#include "tools/core/wait_for_previous.h"

namespace lathe::engine {
namespace {

constexpr auto kOutputInterval = std::chrono::milliseconds(200);
// A display-only terminal gets its output in pieces at least this far apart,
// and no more than this much of it (the model's text and the saved file have it all).
constexpr auto kTerminalInterval = std::chrono::milliseconds(50);
constexpr size_t kTerminalBytes = 8 * 1024 * 1024;
constexpr int kMaxTailDepth = 5;
constexpr size_t kMaxParallelCalls = 8;  // walking and reading are I/O-bound: a few more than the cores
// What a forced question says of a tool that asks nothing itself.
constexpr std::string_view kHookAsks = "A hook asks you to confirm this call before it runs.";
constexpr std::string_view kWorkspaceAsks = "This workspace's custom command asks to run this.";

}  // namespace

// One call's journey through its states, and its reports to the editor; the
// terminal it shows, if any (terminal_view.h).
class ToolScheduler::CallRun final : public tools::TerminalView {
 public:
  CallRun(ToolScheduler& owner, const FunctionCall& call) : owner_(owner), id_(owner.nextCallId()) {
    outcome_.response.id = call.id;
    outcome_.response.name = call.name;
  }

  const std::string& id() const { return id_; }
  // Raw output (a shell's) is fenced so Markdown clients show it as it is.
  void setMarkdown(bool markdown) { markdown_ = markdown; }
  // Text for the person: raw output is fenced.
  std::string display(const std::string& text) const { return markdown_ ? text : fenced(text); }
  // The person saw the diff in the permission request, where the editor
  // took it as this call's content; `line` is its first changed line.
  void setDiffShown(int64_t line) { shownDiffLine_ = line; }
  // A line for the person on the call's final update (where an answer was kept).
  void addNote(std::string note) { lines_.push_back(std::move(note)); }
  // Hooks' parts in this call: shown with its final update.
  void addNotes(std::vector<HookNote> notes) {
    for (auto& note : notes) notes_.push_back(std::move(note));
  }
  const std::vector<HookNote>& notes() const { return notes_; }
  // What the call changed in the workspace (a command's): diffs on its final update.
  void setChanged(std::vector<tools::FileDiff> diffs) { changed_ = std::move(diffs); }

  // Ends the call: the model reads `forModel`; the person sees `forPerson`
  // (the same when empty).
  Outcome finish(CallState final, const std::string& forModel, const std::string& forPerson = "") {
    machine_.advance(final);
    outcome_.response.response = responseJson("error", forModel);
    outcome_.forPerson = forPerson.empty() ? forModel : forPerson;
    shape();
    acp::ToolCallUpdate update = updateOf(machine_.state());
    std::vector<acp::ToolCallContent> content{textContent(forPerson.empty() ? forModel : forPerson)};
    for (auto& line : lines_) content.push_back(textContent(std::move(line)));
    addChanged(content);
    update.content = withTerminal(std::move(content));
    addNoteContent(update);
    update.rawOutput = outcome_.response.response;
    addExitMeta(update);
    owner_.editor_.sendUpdate(owner_.sessionId_, acp::SessionUpdate(std::move(update)));
    return std::move(outcome_);
  }

  // --- TerminalView ---
  void embed(const std::string& terminalId) override {
    terminalId_ = terminalId;
    acp::ToolCallUpdate update;
    update.toolCallId = id_;
    update.content = withTerminal({});
    owner_.editor_.sendUpdate(owner_.sessionId_, acp::SessionUpdate(std::move(update)));
  }
  bool streams() const override { return owner_.terminalOutput_; }
  void start(const std::string& cwd) override {
    terminalId_ = id_;
    acp::ToolCallUpdate update;
    update.toolCallId = id_;
    update.content = withTerminal({});
    update.meta = terminalMeta("terminal_info", [&](json::Writer& w) { json::put(w, "cwd", cwd); });
    owner_.editor_.sendUpdate(owner_.sessionId_, acp::SessionUpdate(std::move(update)));
  }
  void write(std::string_view data) override {
    if (terminalId_.empty() || streamed_ >= kTerminalBytes) return;
    pendingData_ += data;
    if (std::chrono::steady_clock::now() - lastData_ >= kTerminalInterval) flush();
  }
  void flush() override {
    // Whole characters only: the rest of a cut one comes with the next piece.
    const size_t whole = utf8::wholeLength(pendingData_);
    if (terminalId_.empty() || whole == 0 || streamed_ >= kTerminalBytes) return;
    std::string data = pendingData_.substr(0, whole);
    pendingData_.erase(0, whole);
    streamed_ += data.size();
    if (streamed_ >= kTerminalBytes) data += "\r\n[Lathe stopped showing this output here; the result has its end]\r\n";
    lastData_ = std::chrono::steady_clock::now();
    acp::ToolCallUpdate update;
    update.toolCallId = id_;
    update.meta = terminalMeta("terminal_output", [&](json::Writer& w) { json::put(w, "data", data); });
    owner_.editor_.sendUpdate(owner_.sessionId_, acp::SessionUpdate(std::move(update)));
  }
  void exit(std::optional<int> exitCode, std::optional<std::string> signal) override {
    if (terminalId_.empty()) return;
    // The command is done: a character cut at its very end will never be whole.
    pendingData_ = utf8::sanitize(pendingData_);
    flush();
    exitMeta_ = terminalMeta("terminal_exit", [&](json::Writer& w) {
      json::key(w, "exit_code");
      if (exitCode) w.Int(*exitCode); else w.Null();
      json::key(w, "signal");
      if (signal) json::str(w, *signal); else w.Null();
    });
  }

  void moveTo(CallState next) {
    if (!machine_.advance(next) || next != CallState::executing) return;
    owner_.editor_.sendUpdate(owner_.sessionId_, updateOf(next));
  }

  // Live output, throttled; the final result replaces it.
  void output(const std::string& text) {
    auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(outputMutex_);
    if (now - lastOutput_ < kOutputInterval) return;
    lastOutput_ = now;
    acp::ToolCallUpdate update;
    update.toolCallId = id_;
    update.content = std::vector<acp::ToolCallContent>{textContent(display(text))};
    owner_.editor_.sendUpdate(owner_.sessionId_, acp::SessionUpdate(std::move(update)));
  }

  Outcome succeed(tools::ToolResult& result) {
    machine_.advance(CallState::success);
    outcome_.response.response = responseJson("output", modelText(result));
    shape();
    acp::ToolCallUpdate done = updateOf(CallState::success);
    std::vector<acp::ToolCallContent> content;
    if (auto* diff = std::get_if<tools::FileDiff>(&result.returnDisplay)) {
      done.locations = std::vector<acp::ToolCallLocation>{{diff->path, shownDiffLine_.value_or(0)}};
      if (!shownDiffLine_) done.locations->front().line = firstChangedLine(*diff);
      // The edit wrote what was approved (the edit tools check), and ACP
      // updates replace only the fields they carry: the diff the permission
      // request carried stays the call's content, so megabytes of text are
      // not sent again. Notes replace the whole collection, diff included.
      if (shownDiffLine_ && result.displayNotes.empty() && lines_.empty() && notes_.empty() && changed_.empty()) {
        return sendSuccess(std::move(done));
      }
      content.push_back(diffContent(std::move(*diff)));
    } else if (auto* text = std::get_if<std::string>(&result.returnDisplay); text && !text->empty()) {
      content.push_back(textContent(display(*text)));
    }
    for (auto& note : result.displayNotes) content.push_back(textContent(std::move(note)));
    for (auto& line : lines_) content.push_back(textContent(std::move(line)));
    addChanged(content);
    done.content = withTerminal(std::move(content));
    addNoteContent(done);
    addExitMeta(done);
    return sendSuccess(std::move(done));
  }

 private:
  // The call's content: the terminal it shows (if any) before the rest.
  std::vector<acp::ToolCallContent> withTerminal(std::vector<acp::ToolCallContent> rest) const {
    if (terminalId_.empty()) return rest;
    rest.insert(rest.begin(), acp::ToolCallContent::ofTerminal(terminalId_));
    return rest;
  }
  // {"<key>": {"terminal_id": ..., <fields>}}, the extension's shape.
  json::Raw terminalMeta(const char* key, const std::function<void(json::Writer&)>& fields) const {
    return {json::buildObject([&](json::Writer& w) {
      json::object(w, key, [&] {
        json::put(w, "terminal_id", terminalId_);
        fields(w);
      });
    })};
  }
  void addChanged(std::vector<acp::ToolCallContent>& content) {
    for (auto& diff : changed_) content.push_back(diffContent(std::move(diff)));
    changed_.clear();
  }
  // terminal_exit joins the update's _meta (the hooks' notes may be there).
  void addExitMeta(acp::ToolCallUpdate& update) {
    json::Raw exit = std::exchange(exitMeta_, json::Raw{});
    if (exit.empty()) return;
    if (update.meta.empty()) {
      update.meta = std::move(exit);
      return;
    }
    // Both are objects written by buildObject: {a...} + {b...} -> {a...,b...}.
    update.meta.text = update.meta.text.substr(0, update.meta.text.size() - 1) + "," + exit.text.substr(1);
  }
  // The hooks' notes after the call's own content, and as _meta for editors that mark them.
  void addNoteContent(acp::ToolCallUpdate& update) const {
    if (notes_.empty()) return;
    if (!update.content) update.content.emplace();
    for (const auto& note : notes_) update.content->push_back(textContent(hookNoteText(note)));
    update.meta = hookNotesMeta(notes_);
  }
  // The response as the model will read it, before the person is shown it.
  void shape() {
    if (owner_.shaper_) owner_.shaper_(outcome_.response, owner_.roundSize_);
  }
  Outcome sendSuccess(acp::ToolCallUpdate done) {
    done.rawOutput = outcome_.response.response;
    owner_.editor_.sendUpdate(owner_.sessionId_, acp::SessionUpdate(std::move(done)));  // a variant built from an lvalue would copy the diff
    return std::move(outcome_);
  }
  acp::ToolCallUpdate updateOf(CallState state) const {
    acp::ToolCallUpdate update;
    update.toolCallId = id_;
    update.status = toAcpStatus(state);
    return update;
  }
  // The text the model reads; inline data (images) travels as extra parts.
  std::string modelText(tools::ToolResult& result) {
    std::string text;
    for (auto& part : result.llmContent) {
      if (part.isInline()) {
        Part inlinePart;
        inlinePart.inlineData = InlineData{part.mimeType, std::move(part.data)};
        outcome_.inlineParts.push_back(std::move(inlinePart));
        text += (text.empty() ? "" : "\n") + std::string("[") + part.mimeType + " content attached below]";
      } else {
        text += part.text;
      }
    }
    return text;
  }

  ToolScheduler& owner_;
  std::string id_;
  bool markdown_ = true;
  std::optional<int64_t> shownDiffLine_;
  std::vector<std::string> lines_;
  std::vector<tools::FileDiff> changed_;
  std::vector<HookNote> notes_;
  CallStateMachine machine_;
  Outcome outcome_;
  std::mutex outputMutex_;
  std::chrono::steady_clock::time_point lastOutput_{};
  // The terminal the call shows (the call's thread only).
  std::string terminalId_;
  std::string pendingData_;
  size_t streamed_ = 0;
  std::chrono::steady_clock::time_point lastData_{};
  json::Raw exitMeta_;
};

ToolScheduler::ToolScheduler(const tools::ToolRegistry& registry, CallChannel& editor, std::string sessionId,
                             const std::atomic<ApprovalMode>& mode, SessionApprovals configured)
    : ToolScheduler(registry, editor, std::move(sessionId), mode,
                    std::make_shared<SharedApprovals>(std::move(configured))) {}

ToolScheduler::ToolScheduler(const tools::ToolRegistry& registry, CallChannel& editor, std::string sessionId,
                             const std::atomic<ApprovalMode>& mode, std::shared_ptr<SharedApprovals> approvals)
    : registry_(registry),
      editor_(editor),
      sessionId_(std::move(sessionId)),
      mode_(mode),
      approvals_(std::move(approvals)) {}

void ToolScheduler::grant(const SessionApprovals& more) { approvals_->add(more); }

ApprovalDecision ToolScheduler::decide(const ApprovalQuery& query) {
  ApprovalDecision decision = approvals_->decide(mode_.load(), query);
  return readOnly_ ? withinReadOnly(decision, query) : decision;
}

// Only answers that would stop the question next time are offered: none
// for a question of the person's own files (nothing outranks those), this
// session's over a workspace's or an extension's rule, kept ones where their
// rank (Gemini CLI's) is above the rule's.
AlwaysOffers ToolScheduler::offersFor(const ApprovalDecision& decision) const {
  const int asked = decision.askedAt;
  if (asked >= static_cast<int>(PolicyTier::user) * 1000) return {.session = false};
  const std::shared_ptr<KeptAnswers>& kept = approvals_->kept();
  auto keep = [&](Lasting where) { return kept && kept->canKeep(where) && keptAnswerRank(where) > asked; };
  return {.session = true, .workspace = keep(Lasting::workspace), .everywhere = keep(Lasting::everywhere)};
}

void ToolScheduler::rememberAlways(const PermissionChoice& choice, const ApprovalQuery& query, CallRun& run) {
  std::vector<ApprovalKey> keys = alwaysKeys(*choice.always, query);
  if (const auto& store = approvals_->kept(); choice.lasting != Lasting::session && store) {
    auto kept = store->keep({choice.lasting, query.toolName, keys, mode_.load()});
    if (kept) {
      run.addNote(*kept);
      return;
    }
    run.addNote("Allowed for this session only: the answer could not be kept (" + kept.error().message + ").");
  }
  approvals_->rememberAnswer(keys);
}

constexpr std::string_view kCallIdPrefix = "call_";

std::string ToolScheduler::nextCallId() { return std::string(kCallIdPrefix) + std::to_string(++nextId_); }

uint64_t ToolScheduler::callNumberOf(std::string_view id) {
  if (!id.starts_with(kCallIdPrefix)) return 0;
  id.remove_prefix(kCallIdPrefix.size());
  uint64_t number = 0;
  auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), number);
  return error == std::errc{} && end == id.data() + id.size() ? number : 0;
}

bool ToolScheduler::runsInParallel(const FunctionCall& call) const {
  auto tool = registry_.find(call.name);
  return tool && (tool->isReadOnly() || tool->kind() == tools::Kind::agent);
}

std::vector<Part> ToolScheduler::run(const std::vector<FunctionCall>& calls, const CancelToken& cancel,
                                     size_t roundSize) {
  cancelledByPerson_ = false;
  roundSize_ = std::max({roundSize, calls.size(), size_t{1}});
  std::vector<Outcome> outcomes(calls.size());
  size_t i = 0;
  while (i < calls.size()) {
    size_t end = i + 1;
    if (runsInParallel(calls[i])) {
      // wait_for_previous: the call starts a new batch, after this one ends.
      while (end < calls.size() && runsInParallel(calls[end]) && !tools::waitsForPrevious(calls[end].args.text)) ++end;
    }
    runBatch(calls, i, end, outcomes, cancel);
    i = end;
  }

  std::vector<Part> parts;
  for (auto& outcome : outcomes) {
    Part part;
    part.functionResponse = std::move(outcome.response);
    parts.push_back(std::move(part));
  }
  for (auto& outcome : outcomes) {
    for (auto& extra : outcome.inlineParts) parts.push_back(std::move(extra));
  }
  return parts;
}

Result<std::vector<tools::ToolResult>> ToolScheduler::runForPerson(const std::vector<FunctionCall>& calls,
                                                                   bool fromWorkspace, const CancelToken& cancel) {
  cancelledByPerson_ = false;
  roundSize_ = 1;
  struct Approved {
    std::unique_ptr<CallRun> run;
    Prepared prepared;
  };
  std::vector<Approved> approved;
  // What was allowed does not run when a later one may not.
  auto refuse = [&](const std::string& why) -> Error {
    for (auto& call : approved) call.run->finish(CallState::cancelled, "Not run: " + why);
    return makeError(cancel.cancelled() || cancelledByPerson_ ? Errc::cancelled : Errc::forbidden, why);
  };
  for (const FunctionCall& call : calls) {
    auto run = std::make_unique<CallRun>(*this, call);
    Prepared prepared;
    if (auto failed = prepare(call, *run, prepared)) return refuse(failed->forPerson);
    if (cancel.cancelled()) return refuse(run->finish(CallState::cancelled, "Cancelled before it ran.").forPerson);
    // The person's injections stand before the same hooks as the model's calls.
    bool ask = false;
    if (auto stopped = gateBefore(call, *run, prepared, "", ask, cancel)) return refuse(stopped->forPerson);
    std::string_view forcedWhy = ask ? kHookAsks : fromWorkspace ? kWorkspaceAsks : "";
    if (auto refused = approve(call, *run, prepared, forcedWhy, cancel)) return refuse(refused->forPerson);
    approved.push_back({std::move(run), std::move(prepared)});
  }
  std::vector<tools::ToolResult> results;
  for (size_t i = 0; i < approved.size(); ++i) {
    CallRun& run = *approved[i].run;
    run.moveTo(CallState::scheduled);
    run.moveTo(CallState::executing);
    tools::ToolResult result =
        approved[i].prepared.invocation->execute(cancel.child(), [&run](const std::string& text) { run.output(text); });
    run.setChanged(std::move(result.changedFiles));
    if (result.error) {
      const bool cancelled = result.error->type == tools::ErrorType::cancelled;
      std::string why = run.finish(cancelled ? CallState::cancelled : CallState::error, result.error->message).forPerson;
      approved.erase(approved.begin(), approved.begin() + static_cast<std::ptrdiff_t>(i + 1));
      return refuse(why);
    }
    if (auto withheld = gateAfter(calls[i], run, approved[i].prepared, "", result, cancel)) {
      approved.erase(approved.begin(), approved.begin() + static_cast<std::ptrdiff_t>(i + 1));
      return refuse(withheld->forPerson);
    }
    tools::ToolResult kept = result;  // succeed() moves the inline data out
    run.succeed(result);
    results.push_back(std::move(kept));
  }
  return results;
}

// Calls [begin, end) run on a bounded set of tasks that take the
// next call as they finish one: a thousand calls never start a thousand threads.
void ToolScheduler::runBatch(const std::vector<FunctionCall>& calls, size_t begin, size_t end,
                             std::vector<Outcome>& outcomes, const CancelToken& cancel) {
  std::atomic<size_t> next{begin};
  auto work = [&] {
    for (size_t k; (k = next.fetch_add(1)) < end;) outcomes[k] = guarded(calls[k], cancel);
  };
  exec::TaskGroup helpers;
  for (size_t n = 1; n < std::min(end - begin, kMaxParallelCalls); ++n) {
    helpers.post([&](const CancelToken&) { work(); });
  }
  work();  // this thread takes calls too
  helpers.join();
}

// A tool that throws (it should not) answers the model with an error instead
// of taking the process down.
ToolScheduler::Outcome ToolScheduler::guarded(const FunctionCall& call, const CancelToken& cancel) {
  try {
    return runOne(call, cancel, 0);
  } catch (const std::exception& e) {
    Outcome outcome;
    outcome.response = FunctionResponse{call.id, call.name, responseJson("error", std::string("Internal error: ") + e.what())};
    return outcome;
  }
}

ToolScheduler::Outcome ToolScheduler::runOne(const FunctionCall& call, const CancelToken& cancel, int depth,
                                             const std::string& originalName) {
  CallRun run(*this, call);
  if (cancelledByPerson_) return run.finish(CallState::cancelled, "Not run: the user cancelled the turn.");
  Prepared prepared;
  if (auto failed = prepare(call, run, prepared)) return std::move(*failed);
  if (cancel.cancelled()) return run.finish(CallState::cancelled, "Cancelled before it ran: the user stopped the turn.");
  bool ask = false;
  if (auto stopped = gateBefore(call, run, prepared, originalName, ask, cancel)) return std::move(*stopped);
  if (auto refused = approve(call, run, prepared, ask ? kHookAsks : "", cancel)) return std::move(*refused);
  // A hook or a question the cancel cut short decided nothing: the call does not run.
  if (cancel.cancelled()) return run.finish(CallState::cancelled, "Cancelled before it ran: the user stopped the turn.");
  run.moveTo(CallState::scheduled);
  run.moveTo(CallState::executing);
  prepared.invocation->setCallId(run.id());
  prepared.invocation->setTerminalView(&run);

  tools::ToolResult result =
      prepared.invocation->execute(cancel.child(), [&run](const std::string& text) { run.output(text); });
  run.setChanged(std::move(result.changedFiles));
  // What the tool did is what is reported: a call that finished before the
  // cancel reached it really did its work, and the model must know.
  if (result.error && result.error->type == tools::ErrorType::cancelled) {
    // What the person saw of the output stays on the card, marked as cancelled.
    auto* shown = std::get_if<std::string>(&result.returnDisplay);
    std::string forPerson = shown && !shown->empty() ? run.display(*shown) + "\n\nCancelled." : "";
    return run.finish(CallState::cancelled, "Cancelled: the user stopped the turn.", forPerson);
  }
  if (!prepared.changedKeys.empty()) {
    // The model must know it did not get the call it asked for.
    std::string keys;
    for (const auto& key : prepared.changedKeys) keys += (keys.empty() ? "" : ", ") + key;
    result.llmContent.push_back(
        tools::LlmPart{"\n\n[Lathe] A hook changed these arguments before the call ran: " + keys + ".", {}, {}});
  }
  if (auto withheld = gateAfter(call, run, prepared, originalName, result, cancel)) return std::move(*withheld);
  if (result.error) return run.finish(CallState::error, result.error->message);
  addFoundContext(*prepared.tool, *prepared.invocation, result);
  if (!result.tailToolCallRequest || depth >= kMaxTailDepth) return run.succeed(result);

  // The tool (or a hook) asked for another to run right after it: the model
  // sees the tail's result as the answer to its call.
  Outcome first = run.succeed(result);
  FunctionCall tail{call.id, result.tailToolCallRequest->name, result.tailToolCallRequest->args};
  Outcome tailOutcome = runOne(tail, cancel, depth + 1, originalName.empty() ? call.name : originalName);
  tailOutcome.response.name = call.name;
  tailOutcome.inlineParts.insert(tailOutcome.inlineParts.begin(), std::make_move_iterator(first.inlineParts.begin()),
                                 std::make_move_iterator(first.inlineParts.end()));
  return tailOutcome;
}

std::optional<ToolScheduler::Outcome> ToolScheduler::gateBefore(const FunctionCall& call, CallRun& run,
                                                                Prepared& prepared, const std::string& originalName,
                                                                bool& ask, const CancelToken& cancel) {
  if (!gate_) return std::nullopt;
  std::optional<tools::ToolSource> source = registry_.sourceOf(call.name);
  BeforeCall before = gate_->beforeCall({call.name, prepared.args, source ? &*source : nullptr, originalName}, cancel);
  run.addNotes(std::move(before.notes));
  if (before.action == BeforeCall::Action::refuse) {
    return run.finish(CallState::error, "Tool execution blocked: " + before.reason);
  }
  if (before.action == BeforeCall::Action::stop) {
    return run.finish(CallState::error, "Agent execution stopped by hook: " + before.reason);
  }
  ask = before.ask;
  if (!before.args) return std::nullopt;
  // The call runs with the hook's arguments: built and judged again, and the person sees them.
  auto args = json::parse(before.args->text);
  tools::BuildResult built = args ? prepared.tool->build(*args) : tools::BuildResult{};
  if (!built.invocation) {
    std::string why = args ? (built.error ? built.error->message : "refused") : args.error().message;
    return run.finish(CallState::error, "Tool parameter modification by hook failed validation: " + why);
  }
  prepared.changedKeys = changedKeys(prepared.args, *args);
  prepared.invocation = std::move(built.invocation);
  prepared.args = *before.args;
  acp::ToolCallUpdate changed;
  changed.toolCallId = run.id();
  changed.title = prepared.tool->info().displayName + ": " + prepared.invocation->description();
  changed.rawInput = *before.args;
  changed.locations.emplace();
  for (const auto& loc : prepared.invocation->locations()) changed.locations->push_back({loc.path, loc.line});
  prepared.announce.title = *changed.title;
  prepared.announce.rawInput = changed.rawInput;
  prepared.announce.locations = *changed.locations;
  editor_.sendUpdate(sessionId_, acp::SessionUpdate(std::move(changed)));
  return std::nullopt;
}

std::optional<ToolScheduler::Outcome> ToolScheduler::gateAfter(const FunctionCall& call, CallRun& run,
                                                               const Prepared& prepared,
                                                               const std::string& originalName,
                                                               tools::ToolResult& result, const CancelToken& cancel) {
  if (!gate_) return std::nullopt;
  std::optional<tools::ToolSource> source = registry_.sourceOf(call.name);
  AfterCall after = gate_->afterCall({call.name, prepared.args, source ? &*source : nullptr, originalName}, result, cancel);
  run.addNotes(std::move(after.notes));
  if (after.action == AfterCall::Action::withhold) {
    return run.finish(CallState::error, "Tool result blocked: " + after.reason);
  }
  if (after.action == AfterCall::Action::stop) {
    return run.finish(CallState::error, "Agent execution stopped by hook: " + after.reason);
  }
  if (!after.addedContext.empty()) result.llmContent.push_back(tools::LlmPart{"\n\n" + after.addedContext, {}, {}});
  if (after.tail) result.tailToolCallRequest = std::move(after.tail);
  return std::nullopt;
}

// A call that read, searched or edited inside a folder holding a context file
// the model has not seen yet brings that file along, after its own result.
void ToolScheduler::addFoundContext(const tools::Tool& tool, const tools::ToolInvocation& invocation,
                                    tools::ToolResult& result) const {
  const tools::Kind kind = tool.kind();
  if (!contextSource_ || (kind != tools::Kind::read && kind != tools::Kind::search && kind != tools::Kind::edit)) return;
  std::vector<std::string> paths;
  for (const auto& location : invocation.locations()) paths.push_back(location.path);
  if (paths.empty()) return;
  if (std::string found = contextSource_(paths); !found.empty()) result.llmContent.push_back(tools::LlmPart{std::move(found), {}, {}});
}

// Looks the tool up, checks the arguments, builds the invocation and announces
// the call (tool_call). An outcome only when the call ends here.
std::optional<ToolScheduler::Outcome> ToolScheduler::prepare(const FunctionCall& call, CallRun& run,
                                                             Prepared& prepared) {
  acp::ToolCall& announce = prepared.announce;
  announce.toolCallId = run.id();
  announce.title = call.name;
  announce.name = call.name;
  announce.rawInput = call.args.empty() ? json::Raw{"{}"} : call.args;
  prepared.args = announce.rawInput;
  auto args = json::parse(announce.rawInput.text);
  // Arguments that are not JSON (a model's mistake) reach the editor as a string, never spliced raw.
  if (!args) announce.rawInput = json::Raw{json::build([&](json::Writer& w) { json::str(w, call.args.text); })};
  prepared.tool = registry_.find(call.name);
  auto failed = [&](const std::string& message) {
    editor_.sendUpdate(sessionId_, announce);
    return run.finish(CallState::error, message);
  };
  if (!prepared.tool) {
    std::string names;
    for (const auto& t : registry_.all()) names += (names.empty() ? "" : ", ") + t->name();
    return failed("Tool \"" + call.name + "\" does not exist. Available tools: " + names + ".");
  }
  const tools::Tool& tool = *prepared.tool;
  announce.kind = toAcpKind(tool.kind());
  run.setMarkdown(tool.info().isOutputMarkdown);
  if (!args) return failed("The arguments of " + call.name + " are not valid JSON: " + args.error().message);
  tools::BuildResult built = tool.build(*args);
  if (!built.invocation) return failed("Invalid parameters for " + call.name + ": " + built.error->message);
  prepared.invocation = std::move(built.invocation);
  announce.title = tool.info().displayName + ": " + prepared.invocation->description();
  for (const auto& loc : prepared.invocation->locations()) announce.locations.push_back({loc.path, loc.line});
  editor_.sendUpdate(sessionId_, announce);
  return std::nullopt;
}

// Decides whether the call may run, asking the person when the policy says
// so. An outcome only when the call does not run.
std::optional<ToolScheduler::Outcome> ToolScheduler::approve(const FunctionCall& call, CallRun& run,
                                                             Prepared& prepared, std::string_view forcedWhy,
                                                             const CancelToken& cancel) {
  const tools::Tool& tool = *prepared.tool;
  auto details = prepared.invocation->shouldConfirmExecute(cancel);
  if (!details) return run.finish(CallState::error, details.error().message);
  std::optional<tools::ToolSource> source = registry_.sourceOf(call.name);
  ApprovalQuery query{tool.name(), tool.kind(), details->has_value() ? &**details : nullptr, source ? &*source : nullptr,
                      // the arguments the call runs with (a hook may have changed them)
                      prepared.args.empty() ? std::string_view("{}") : std::string_view(prepared.args.text), call.name,
                      subagent_};
  ApprovalDecision decision = decide(query);
  // A hook that asks for the person overrules an allow, never a deny.
  const bool allowed = decision.verdict == Decision::allow || decision.verdict == Decision::allowSealed;
  const Decision verdict = !forcedWhy.empty() && allowed ? Decision::ask : decision.verdict;
  // What allowed the call decides how it runs: a line allowed only by the
  // judgement runs sealed.
  prepared.invocation->setApproval(verdict == Decision::allowSealed ? tools::Approval::judged : tools::Approval::person);
  if (verdict == Decision::allow || verdict == Decision::allowSealed) return std::nullopt;
  if (verdict == Decision::deny) return run.finish(CallState::error, decision.forModel, decision.forPerson);
  // A policy rule or a hook may ask about a tool that asks nothing itself.
  const bool forced = verdict != decision.verdict;
  tools::ConfirmationDetails asked =
      details->has_value() ? std::move(**details)
      : forced ? tools::ConfirmationDetails(tools::InfoConfirmation{std::string(forcedWhy), {}})
               : tools::ConfirmationDetails(tools::InfoConfirmation{
                       "Run " + tool.info().displayName + ": " + prepared.invocation->description() + "?", {}});
  query.details = &asked;
  run.moveTo(CallState::awaiting_approval);
  std::vector<HookNote> notes;  // heard before the question takes the edit's texts
  if (gate_) notes = gate_->onPermissionAsked(asked, prepared.announce.title, cancel);
  // A forced question is asked every time: no "always" that would not hold.
  const AlwaysOffers offers = forced ? AlwaysOffers{false, false, false} : offersFor(decision);
  acp::RequestPermissionRequest ask = permissionRequest(run, prepared, asked, decision.forPerson, offers);
  // The person answers knowing what the hooks said of the call so far.
  for (const auto& note : run.notes()) ask.toolCall.content->push_back(textContent(hookNoteText(note)));
  for (const auto& note : notes) ask.toolCall.content->push_back(textContent(hookNoteText(note)));
  const bool showsDiff = std::holds_alternative<tools::EditConfirmation>(asked);
  auto answer = editor_.requestPermission(ask, cancel);
  // Fail closed: anything but a selected option we offered means no.
  if (cancel.cancelled()) return run.finish(CallState::cancelled, "Cancelled: the user stopped the turn.");
  if (answer && answer->cancelled) {
    // The editor cancelled the question: the person stopped the turn (the
    // session/cancel that goes with it may still be on its way).
    cancelledByPerson_ = true;
    return run.finish(CallState::cancelled, "Cancelled: the user stopped the turn.");
  }
  if (!answer) {
    return run.finish(CallState::error, "Not run: permission could not be obtained (" + answer.error().message + ").");
  }
  std::optional<PermissionChoice> choice = choiceFor(answer->optionId, asked, offers);
  if (!choice || !choice->allow) {
    if (std::holds_alternative<tools::PlanConfirmation>(asked)) {
      return run.finish(CallState::error,
                        "The person did not approve the plan, so the session stays in plan mode. Ask what they want "
                        "changed, revise the plan file, and ask for approval again.",
                        "You kept planning; the session stays in plan mode.");
    }
    return run.finish(CallState::error,
                      "The user rejected this tool call. Do not retry it; ask what they want instead if it is unclear.",
                      "You rejected this call; it did not run.");
  }
  prepared.invocation->setChosenOption(answer->optionId);
  if (choice->always) rememberAlways(*choice, query, run);
  if (showsDiff) run.setDiffShown(ask.toolCall.locations->front().line.value_or(1));
  return std::nullopt;
}

acp::RequestPermissionRequest ToolScheduler::permissionRequest(const CallRun& run, const Prepared& prepared,
                                                               tools::ConfirmationDetails& details, const std::string& why,
                                                               AlwaysOffers offers) const {
  acp::RequestPermissionRequest ask;
  ask.sessionId = sessionId_;
  ask.toolCall.toolCallId = run.id();
  ask.toolCall.title = prepared.announce.title;
  ask.toolCall.name = prepared.announce.name;
  ask.toolCall.kind = prepared.announce.kind;
  ask.toolCall.status = acp::ToolCallStatus::pending;
  ask.toolCall.locations = prepared.announce.locations;
  if (auto* edit = std::get_if<tools::EditConfirmation>(&details)) {
    ask.toolCall.locations = std::vector<acp::ToolCallLocation>{{edit->diff.path, firstChangedLine(edit->diff)}};
  }
  ask.toolCall.rawInput = prepared.announce.rawInput;
  ask.toolCall.content = confirmationContent(details);
  if (!why.empty()) ask.toolCall.content->push_back(textContent(why));
  ask.options = permissionOptions(details, prepared.tool->info().displayName, offers);
  return ask;
}

}  // namespace lathe::engine
