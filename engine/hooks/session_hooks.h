// The person's hooks (Gemini CLI's `hooks` settings) in one session: each
// event fired where Lathe's turn has its equivalent, and what the hooks
// answer applied as Gemini CLI 0.61 applies it, failing closed
// (hook_verdict.h):
//
//   SessionStart         source startup, or resume for a loaded session: the
//                        person's and extensions' hooks once the editor has
//                        the session (in the background), the workspace's at
//                        the first prompt once agreed to; the context of
//                        both opens the first prompt
//   BeforeAgent          each prompt before it joins the history: block
//                        (the prompt is dropped), stop (kept, the turn ends),
//                        added context
//   BeforeModel          each model request: block (ends the turn, or its
//                        llm_response answers instead), stop, a changed
//                        request (model, generation settings, texts), a reply
//                        of its own (llm_response: nothing is sent)
//   BeforeToolSelection  each request: the tools offered (NONE, ANY, a
//                        list); calls to tools not offered are refused
//   AfterModel           each streamed chunk: block or stop (the reply is
//                        dropped), its text replaced
//   BeforeTool           each call (a CallGate: engine/scheduler/call_gate.h)
//                        after its arguments are checked, before approval:
//                        block, stop, changed input (judged again), ask
//   AfterTool            each call that ran: withhold the result (the reason
//                        replaces it), stop, added context, a tail call
//   Notification         each permission question (ToolPermission)
//   AfterAgent           each answer without calls: block (the reason goes
//                        back to the model as a prompt, stop_hook_active set),
//                        stop
//   PreCompress          before the history is compressed (auto or manual)
//   SessionEnd           when the session closes (reason exit), in the
//                        background: nobody waits for it but the process's end
//
// What the hooks said reaches the person on the tool call it touched, or on
// a card of its own (tellHooks, the one place a hook is told about); the
// model gets only what a hook returned for it, marked as the hook's.
// Turn hook points on the turn's thread; the gate on the calls' workers.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "engine/hooks/hook_dispatcher.h"
#include "engine/hooks/hook_verdict.h"
#include "engine/scheduler/call_gate.h"
#include "engine/session/editor_client.h"
#include "engine/session/turn_hooks.h"
#include "protocol/exec/task_group.h"

namespace lathe::engine {

class SessionHooks final : public TurnHooks, public CallGate {
 public:
  struct Setup {
    std::string sessionId;
    std::string workspaceRoot;
    std::string plansDir;  // $GEMINI_PLANS_DIR; empty: the session has no plan mode
    HookSet hooks;         // the person's and extensions': they run without asking
    HookOptions options;
    bool reopened = false;  // a loaded or resumed session: SessionStart's source is "resume"
    HookRunner runner = runHook;
  };
  SessionHooks(Setup setup, EditorClient& editor);

  // The workspace's hooks, once the person agreed to them.
  void addWorkspaceHooks(HookSet hooks);

  std::optional<TurnStop> revisePrompt(std::vector<Part>& prompt, History& history, const CancelToken& cancel) override;
  std::optional<TurnStop> beforeModelRequest(History& history, const CancelToken& cancel) override;
  std::optional<TurnStop> reviseRequest(ModelRequest& request, RequestRevision& revision,
                                        const CancelToken& cancel) override;
  std::optional<TurnStop> reviseChunk(ModelChunk& chunk, const CancelToken& cancel) override;
  std::optional<TurnStop> onAnswer(History& history, const CancelToken& cancel) override;
  void beforeCompression(bool onDemand, const CancelToken& cancel) override;
  void onEditorReady() override;
  void onClose() override;

  BeforeCall beforeCall(const GatedCall& call, const CancelToken& cancel) override;
  AfterCall afterCall(const GatedCall& call, const tools::ToolResult& result, const CancelToken& cancel) override;
  std::vector<HookNote> onPermissionAsked(const tools::ConfirmationDetails& details, const std::string& title,
                                          const CancelToken& cancel) override;

 private:
  HookVerdict fire(HookEvent event, const std::vector<std::string>& targets, const std::string& fields,
                   const CancelToken& cancel, std::vector<HookRun>* runs = nullptr,
                   const HookDispatcher::Only& only = {});
  std::string startFields() const;
  // The one place the person is told about hooks outside a tool call.
  void tellHooks(const std::vector<HookNote>& notes);
  std::optional<TurnStop> startSession(std::vector<Part>& prompt, const CancelToken& cancel);
  std::optional<TurnStop> selectTools(ModelRequest& request, RequestRevision& revision, const CancelToken& cancel);
  // A stop a tool hook asked for, for the turn to end at its next step.
  void stopAfterCalls(const std::string& reason);

  Setup setup_;
  EditorClient& editor_;
  std::shared_ptr<HookRegistry> registry_;
  HookDispatcher dispatcher_;
  // The turn's (its thread).
  bool started_ = false;
  bool reviewing_ = false;       // AfterAgent sent the model back: stop_hook_active
  std::string prompt_;           // the person's words this turn
  size_t turnStart_ = 0;         // where this turn's contents begin in the history
  std::string requestView_;      // the request in flight, as hooks see it (AfterModel)
  std::set<std::string> failedThisRequest_;  // AfterModel failures already told
  // Shared with the calls' workers.
  std::mutex mutex_;
  std::optional<std::string> stopReason_;      // a tool hook stopped the turn
  std::optional<std::set<std::string>> offered_;  // BeforeToolSelection's tools; nullopt: all
  // SessionStart as the session opened: what it said, and which hooks ran.
  std::mutex startMutex_;
  bool startPosted_ = false;
  std::optional<HookVerdict> early_;
  std::set<const HookDefinition*> ranEarly_;
  exec::TaskGroup starting_;  // last: joined before what its task uses goes
};

// SessionEnd hooks run here, after their session is gone; the process waits
// for them before it exits (SessionTable::shutdown).
void waitForBackgroundHooks();

}  // namespace lathe::engine
