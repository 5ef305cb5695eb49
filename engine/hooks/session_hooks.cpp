// A session's hooks at the turn's events (the tool events are call_hooks.cpp's).
#include "engine/hooks/session_hooks.h"

#include "engine/hooks/llm_payloads.h"
#include "engine/session/notice_card.h"
#include "engine/session/session_context.h"
#include "engine/session/system_prompt.h"
#include "protocol/base/log.h"
#include "protocol/exec/task_group.h"

namespace lathe::engine {
namespace {

exec::TaskGroup& backgroundHooks() {
  static exec::TaskGroup group;
  return group;
}

// The person's words of a prompt: its text, without the session's context.
std::string promptText(const std::vector<Part>& parts) {
  std::string text;
  for (const Part& part : parts) {
    if (!part.text || isSessionContext(part)) continue;
    text += (text.empty() ? "" : "\n\n") + *part.text;
  }
  return text;
}

// Notes worth telling at an event that fires often (each request, each chunk).
std::vector<HookNote> notable(const std::vector<HookNote>& notes) {
  std::vector<HookNote> out;
  for (const auto& note : notes) {
    if ((note.decision != "allowed" && note.decision != "ran") || !note.message.empty()) out.push_back(note);
  }
  return out;
}

}  // namespace

void waitForBackgroundHooks() { backgroundHooks().waitIdle(); }

SessionHooks::SessionHooks(Setup setup, EditorClient& editor)
    : setup_(std::move(setup)),
      editor_(editor),
      registry_(std::make_shared<HookRegistry>(setup_.options)),
      dispatcher_(registry_, HookPlace{setup_.sessionId, setup_.workspaceRoot, setup_.plansDir}, setup_.runner) {
  registry_->add(setup_.hooks);
}

void SessionHooks::addWorkspaceHooks(HookSet hooks) { registry_->add(hooks); }

HookVerdict SessionHooks::fire(HookEvent event, const std::vector<std::string>& targets, const std::string& fields,
                               const CancelToken& cancel, std::vector<HookRun>* runs,
                               const HookDispatcher::Only& only) {
  std::vector<HookRun> ran = dispatcher_.fire(event, targets, fields, cancel, only);
  HookVerdict verdict = judgeHooks(event, ran, registry_->options().notifications);
  for (const auto& note : verdict.notes) {
    if (note.decision == "failed") log(LogLevel::warn, hookNoteText(note));
  }
  if (runs) *runs = std::move(ran);
  return verdict;
}

void SessionHooks::tellHooks(const std::vector<HookNote>& notes) {
  if (notes.empty()) return;
  std::string title = notes.size() == 1 ? hookNoteText(HookNote{notes[0].hook, notes[0].event, notes[0].decision, ""})
                                        : "Hooks (" + notes[0].event + ")";
  if (title.back() == '.') title.pop_back();
  std::string text;
  bool stopped = false;
  for (const auto& note : notes) {
    text += (text.empty() ? "" : "\n") + hookNoteText(note);
    stopped = stopped || (note.decision != "allowed" && note.decision != "ran");
  }
  showNotice(editor_, setup_.sessionId,
             acp::Notice{stopped ? acp::NoticeSeverity::warning : acp::NoticeSeverity::info, title, text});
}

std::optional<TurnStop> SessionHooks::startSession(std::vector<Part>& prompt, const CancelToken& cancel) {
  started_ = true;
  if (!setup_.hooks.problems.empty()) {
    std::string text;
    for (const auto& problem : setup_.hooks.problems) text += (text.empty() ? "" : "\n") + problem;
    showNotice(editor_, setup_.sessionId, acp::Notice{acp::NoticeSeverity::warning, "Some hooks were not read", text});
  }
  if (!dispatcher_.has(HookEvent::SessionStart)) return std::nullopt;
  starting_.waitIdle();  // the hooks run as the session opened have answered
  std::optional<HookVerdict> early;
  std::set<const HookDefinition*> ran;
  {
    std::lock_guard lock(startMutex_);
    early = std::move(early_);
    ran = ranEarly_;
  }
  std::string context = early ? early->context : "";
  if (early) tellHooks(early->notes);
  // The hooks that joined since (the workspace's, agreed to at this prompt) run now.
  const std::string source = setup_.reopened ? "resume" : "startup";
  HookVerdict verdict = fire(HookEvent::SessionStart, {source}, startFields(), cancel, nullptr,
                             [&](const HookDefinition& hook) { return !ran.contains(&hook); });
  tellHooks(verdict.notes);
  if (!verdict.context.empty()) context += (context.empty() ? "" : "\n\n") + verdict.context;
  if (!context.empty()) {
    // Its context opens the prompt, after where the session is.
    size_t at = !prompt.empty() && isSessionContext(prompt.front()) ? 1 : 0;
    prompt.insert(prompt.begin() + static_cast<std::ptrdiff_t>(at), Part::makeText(context));
  }
  return std::nullopt;
}

std::string SessionHooks::startFields() const {
  return json::buildObject([&](json::Writer& w) { json::put(w, "source", setup_.reopened ? "resume" : "startup"); });
}

void SessionHooks::onEditorReady() {
  if (!dispatcher_.has(HookEvent::SessionStart)) return;
  {
    std::lock_guard lock(startMutex_);
    if (std::exchange(startPosted_, true)) return;
  }
  // As Gemini CLI does when a session starts; the first prompt waits for the answer.
  (void)starting_.post([this](const CancelToken& cancel) {
    std::vector<HookRun> runs;
    HookVerdict verdict =
        fire(HookEvent::SessionStart, {setup_.reopened ? "resume" : "startup"}, startFields(), cancel, &runs);
    std::lock_guard lock(startMutex_);
    for (const auto& run : runs) ranEarly_.insert(run.hook.get());
    early_ = std::move(verdict);
  });
}

std::optional<TurnStop> SessionHooks::revisePrompt(std::vector<Part>& prompt, History& history,
                                                   const CancelToken& cancel) {
  {
    std::lock_guard lock(mutex_);
    stopReason_.reset();
    offered_.reset();
  }
  reviewing_ = false;
  prompt_ = promptText(prompt);
  turnStart_ = history.size();
  if (!started_) startSession(prompt, cancel);
  if (!dispatcher_.has(HookEvent::BeforeAgent)) return std::nullopt;
  std::string fields = json::buildObject([&](json::Writer& w) { json::put(w, "prompt", prompt_); });
  HookVerdict verdict = fire(HookEvent::BeforeAgent, {}, fields, cancel);
  tellHooks(verdict.notes);
  if (cancel.cancelled()) return std::nullopt;  // the turn ends as cancelled
  if (verdict.stop) {
    // Gemini CLI keeps the prompt of a stopped turn (not of a blocked one).
    if (auto status = history.appendUser(prompt); !status) log(LogLevel::warn, status.error().message);
    return TurnStop{acp::StopReason::end_turn, ""};
  }
  if (verdict.blocked) return TurnStop{acp::StopReason::end_turn, ""};
  if (!verdict.context.empty()) prompt.push_back(Part::makeText(verdict.context));
  return std::nullopt;
}

std::optional<TurnStop> SessionHooks::beforeModelRequest(History&, const CancelToken&) {
  std::lock_guard lock(mutex_);
  if (!stopReason_) return std::nullopt;
  stopReason_.reset();
  return TurnStop{acp::StopReason::end_turn, ""};  // the call's card says which hook and why
}

std::optional<TurnStop> SessionHooks::reviseRequest(ModelRequest& request, RequestRevision& revision,
                                                    const CancelToken& cancel) {
  if (registry_->empty()) return std::nullopt;
  request.systemInstruction += hookContextSection();
  failedThisRequest_.clear();
  const bool viewed = dispatcher_.has(HookEvent::BeforeModel) || dispatcher_.has(HookEvent::BeforeToolSelection) ||
                      dispatcher_.has(HookEvent::AfterModel);
  if (!viewed) return std::nullopt;
  auto view = [&] { return json::build([&](json::Writer& w) { writeHookRequest(w, request); }); };
  if (dispatcher_.has(HookEvent::BeforeModel)) {
    std::string fields = "{\"llm_request\":" + view() + "}";
    HookVerdict verdict = fire(HookEvent::BeforeModel, {}, fields, cancel);
    tellHooks(notable(verdict.notes));
    if (cancel.cancelled()) return std::nullopt;
    if (verdict.stop) return TurnStop{acp::StopReason::end_turn, ""};
    const json::Value* reply = json::find(verdict.specific, "llm_response");
    auto parts = reply ? hookResponseParts(*reply) : std::nullopt;
    if (parts) {
      // The hook answered for the model: nothing is sent. Its reply is text
      // only (no calls), so with a block from another hook the turn still
      // ends after it, as in Gemini CLI.
      revision.reply = ModelReply{Content{Role::model, std::move(*parts)}, hookFinishReason(*reply), std::nullopt, {}};
      return std::nullopt;
    }
    if (verdict.blocked) return TurnStop{acp::StopReason::end_turn, ""};
    if (const json::Value* changed = json::find(verdict.specific, "llm_request")) {
      applyHookRequest(*changed, request, revision.contents);
    }
  }
  if (auto stop = selectTools(request, revision, cancel)) return stop;
  if (dispatcher_.has(HookEvent::AfterModel)) requestView_ = view();
  return std::nullopt;
}

std::optional<TurnStop> SessionHooks::selectTools(ModelRequest& request, RequestRevision& revision,
                                                  const CancelToken& cancel) {
  if (!dispatcher_.has(HookEvent::BeforeToolSelection)) return std::nullopt;
  std::string view = json::build([&](json::Writer& w) { writeHookRequest(w, request); });
  std::vector<HookRun> runs;
  HookVerdict verdict = fire(HookEvent::BeforeToolSelection, {}, "{\"llm_request\":" + view + "}", cancel, &runs);
  tellHooks(notable(verdict.notes));
  ToolSelection selection = engine::selectTools(runs);
  std::set<std::string> offered;
  if (selection.mode == ToolSelection::Mode::none) {
    request.tools = nullptr;
  } else if (!selection.allowed.empty() && request.tools) {
    for (const auto& declaration : *request.tools) {
      if (selection.allowed.count(declaration.name)) revision.tools.push_back(declaration);
    }
    request.tools = &revision.tools;
  }
  if (request.tools) {
    for (const auto& declaration : *request.tools) offered.insert(declaration.name);
  }
  request.requireToolCall = selection.mode == ToolSelection::Mode::any;
  std::lock_guard lock(mutex_);
  offered_ = std::move(offered);
  return std::nullopt;
}

std::optional<TurnStop> SessionHooks::reviseChunk(ModelChunk& chunk, const CancelToken& cancel) {
  if (!dispatcher_.has(HookEvent::AfterModel)) return std::nullopt;
  std::string response = json::build([&](json::Writer& w) {
    writeHookResponse(w, chunk.parts, chunk.finishReason, chunk.usage);
  });
  std::string fields = "{\"llm_request\":" + (requestView_.empty() ? "{}" : requestView_) +
                                   ",\"llm_response\":" + response + "}";
  HookVerdict verdict = fire(HookEvent::AfterModel, {}, fields, cancel);
  if (cancel.cancelled()) return std::nullopt;
  std::vector<HookNote> told;
  for (auto& note : notable(verdict.notes)) {
    // Each chunk fires the event: a failing hook is told once per request.
    if (note.decision == "failed" && !failedThisRequest_.insert(note.hook).second) continue;
    told.push_back(std::move(note));
  }
  tellHooks(told);
  if (verdict.stop || verdict.blocked) return TurnStop{acp::StopReason::end_turn, ""};
  const json::Value* replaced = json::find(verdict.specific, "llm_response");
  auto parts = replaced ? hookResponseParts(*replaced) : std::nullopt;
  if (!parts) return std::nullopt;
  // The hook's text in place of the chunk's; its calls and thoughts stay.
  std::vector<Part> revised = std::move(*parts);
  for (Part& part : chunk.parts) {
    if (!part.text || part.thought || part.functionCall) revised.push_back(std::move(part));
  }
  chunk.parts = std::move(revised);
  return std::nullopt;
}

std::optional<TurnStop> SessionHooks::onAnswer(History& history, const CancelToken& cancel) {
  if (!dispatcher_.has(HookEvent::AfterAgent)) return std::nullopt;
  std::string answer;
  const auto& contents = history.contents();
  for (size_t i = turnStart_; i < contents.size(); ++i) {
    if (contents[i].role != Role::model) continue;
    for (const Part& part : contents[i].parts) {
      if (part.text && !part.thought) answer += (answer.empty() ? "" : "\n") + *part.text;
    }
  }
  std::string fields = json::buildObject([&](json::Writer& w) {
    json::put(w, "prompt", prompt_);
    json::put(w, "prompt_response", answer.empty() ? std::string("[no response text]") : answer);
    json::put(w, "stop_hook_active", reviewing_);
  });
  HookVerdict verdict = fire(HookEvent::AfterAgent, {}, fields, cancel);
  tellHooks(verdict.notes);
  if (cancel.cancelled() || verdict.stop) return verdict.stop ? std::optional(TurnStop{acp::StopReason::end_turn, ""}) : std::nullopt;
  // A failure reviews nothing: the answer stands (it was shown already).
  if (!verdict.blocked || verdict.reason.empty()) return std::nullopt;
  reviewing_ = true;
  return TurnStop{acp::StopReason::end_turn, verdict.reason, /*retry=*/true};
}

void SessionHooks::beforeCompression(bool onDemand, const CancelToken& cancel) {
  if (!dispatcher_.has(HookEvent::PreCompress)) return;
  const std::string trigger = onDemand ? "manual" : "auto";
  std::string fields = json::buildObject([&](json::Writer& w) { json::put(w, "trigger", trigger); });
  tellHooks(fire(HookEvent::PreCompress, {trigger}, fields, cancel).notes);
}

void SessionHooks::onClose() {
  if (!dispatcher_.has(HookEvent::SessionEnd)) return;
  // Nothing waits for it (the editor may be closing), and the session is
  // gone when it runs: it keeps what it needs, and tells only the log.
  backgroundHooks().post([dispatcher = dispatcher_](const CancelToken&) {
    std::string fields = R"({"reason":"exit"})";
    auto runs = dispatcher.fire(HookEvent::SessionEnd, {"exit"}, fields, CancelToken{});
    for (const auto& note : judgeHooks(HookEvent::SessionEnd, runs, true).notes) log(LogLevel::info, hookNoteText(note));
  });
}

}  // namespace lathe::engine
