// Hook points of a prompt turn, called in this order on the turn's thread:
// on the prompt before it enters the history (on-demand commands, per-prompt
// state), then to revise it (context the person's hooks add), before each
// model request (compression), on the request itself (what it carries and
// offers), on each streamed chunk (revised first, then content loops), on
// each function call before it runs (tool loops), on each
// tool response before it is shown and enters the history (output budgets), on a failed
// model request (recovery), on an answer without calls (a review that may
// send the model back to work), when the turn has ended (titles), and on every update the editor is shown
// (persistence; the user's prompt is offered here as user_message_chunk too,
// so a recording can replay it). Besides the turn: the person changing the
// mode, the model or the effort, compression about to happen, and the
// session closing. A session calls its hooks in the order they were added.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/model_provider.h"
#include "engine/scheduler/approval_policy.h"
#include "engine/session/history.h"
#include "protocol/acp/common.h"
#include "protocol/acp/content.h"
#include "protocol/acp/updates.h"

namespace lathe::engine {

// A hook's wish to end the turn, with a sentence for the person.
// With `retry` (from onChunk and onAnswer only), the turn goes on instead:
// the reply being streamed is dropped (onChunk) or kept (onAnswer), and
// `message` is told to the model as user text.
struct TurnStop {
  acp::StopReason reason = acp::StopReason::end_turn;
  std::string message;
  bool retry = false;
};

// What to do with a function call: run it, answer it without running it
// (the model reads `message`), or end the turn.
struct CallVerdict {
  enum class Action { run, refuse, stop } action = Action::run;
  std::string message;
  acp::StopReason stopReason = acp::StopReason::end_turn;
};

// What a prompt a hook claimed (a slash command) came to: the turn ends with
// stopReason, or goes on to the model with `prompt` as the user's message.
struct PromptOutcome {
  std::optional<std::vector<Part>> prompt;
  acp::StopReason stopReason = acp::StopReason::end_turn;

  static PromptOutcome done(acp::StopReason reason = acp::StopReason::end_turn) { return {std::nullopt, reason}; }
  static PromptOutcome ask(std::vector<Part> parts) { return {std::move(parts), acp::StopReason::end_turn}; }
};
// Runs a claimed prompt on the turn's thread; `attachments` are the prompt's
// blocks after the first, as parts.
using ClaimedPrompt = std::function<PromptOutcome(History&, const CancelToken&, std::vector<Part> attachments)>;

// What a hook may put in place of a model request's parts: the request's
// pointers then point here. With `reply`, nothing is sent: the reply is the
// model's answer.
struct RequestRevision {
  std::vector<Content> contents;
  std::vector<tools::ToolDeclaration> tools;
  std::optional<ModelReply> reply;
};

class TurnHooks {
 public:
  virtual ~TurnHooks() = default;
  // Claims a prompt to run instead of sending it as written (the first hook
  // that does wins); the prompt is shown to the hooks before it runs.
  virtual ClaimedPrompt claimPrompt(const std::vector<acp::ContentBlock>&) { return {}; }
  // Sees the prompt before it is added; a stop ends the turn with the prompt
  // handled (it is not added to the history nor sent).
  virtual std::optional<TurnStop> onPrompt(const std::vector<Part>&, History&, const CancelToken&) {
    return std::nullopt;
  }
  // After every hook's onPrompt: may add to the prompt before it is added;
  // a stop ends the turn as onPrompt's does (the hook may add the prompt
  // to the history itself first).
  virtual std::optional<TurnStop> revisePrompt(std::vector<Part>&, History&, const CancelToken&) { return std::nullopt; }
  // May rewrite the history (e.g. compress it) before it is sent.
  virtual std::optional<TurnStop> beforeModelRequest(History&, const CancelToken&) { return std::nullopt; }
  // May change the request about to be sent (model, generation settings, its
  // contents or tools through `revision`), or answer it (revision.reply).
  virtual std::optional<TurnStop> reviseRequest(ModelRequest&, RequestRevision&, const CancelToken&) {
    return std::nullopt;
  }
  // May rewrite a streamed chunk's text before anyone sees it: the person is
  // shown, and the history keeps, the rewritten text.
  virtual std::optional<TurnStop> reviseChunk(ModelChunk&, const CancelToken&) { return std::nullopt; }
  virtual std::optional<TurnStop> onChunk(const ModelChunk&) { return std::nullopt; }
  virtual CallVerdict onFunctionCall(const FunctionCall&) { return {}; }
  // May shorten a call's response before the model reads it and the person
  // is shown it; roundSize counts the responses of the model's round. Called
  // on the call's worker thread: calls of a round may run at once.
  virtual void onToolResponse(FunctionResponse&, size_t roundSize) { (void)roundSize; }
  // A model request failed (after the session undid what the turn added when
  // the model had not answered yet). A stop ends the turn with that reason
  // instead of the error, e.g. once the cause was removed from the history.
  virtual std::optional<TurnStop> onModelError(const Error&, History&) { return std::nullopt; }
  // The model answered without calls (its answer is in the history): a stop
  // ends the turn with its message; with retry, the message goes to the
  // model as user text and the turn goes on.
  virtual std::optional<TurnStop> onAnswer(History&, const CancelToken&) { return std::nullopt; }
  // The turn ended (not cancelled, not failed); e.g. to title the session.
  virtual void afterTurn(const History&, const CancelToken&) {}
  // Every turn's end, cancelled and failed ones too, after afterTurn.
  virtual void onTurnEnded(const History&, const Result<acp::StopReason>&) {}
  virtual void onUpdate(const acp::SessionUpdate&) {}
  // The person chose another mode or model (any thread).
  virtual void onModeChanged(ApprovalMode) {}
  virtual void onModelChanged(const std::string&) {}
  virtual void onEffortChanged(const std::string&) {}
  // The history is about to be compressed (onDemand: /compress); the turn's thread.
  virtual void beforeCompression(bool onDemand, const CancelToken&) { (void)onDemand; }
  // The editor has the session now (after answering session/new, load or
  // resume): updates about it may follow. Any thread.
  virtual void onEditorReady() {}
  // The session is closed: nothing of it is recorded or shown after this (any thread).
  virtual void onClose() {}
};

}  // namespace lathe::engine
