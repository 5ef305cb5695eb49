// Runs the function calls of one model reply through the tools: look up,
// validate and build, decide approval (asking the person when needed), run,
// and answer the model. Consecutive read-only calls and sub-agents run in
// parallel; any other call runs alone, in order. Called on the turn's thread; it starts
// helper threads for a parallel batch. Session approvals live here.
#pragma once

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/scheduler/approval_policy.h"
#include "engine/model/content.h"
#include "engine/scheduler/call_channel.h"
#include "engine/scheduler/call_gate.h"
#include "engine/scheduler/kept_answers.h"
#include "engine/scheduler/shared_approvals.h"
#include "protocol/acp/client_calls.h"
#include "protocol/acp/tool_call.h"
#include "protocol/base/cancel.h"
#include "tools/core/registry.h"

namespace lathe::engine {

class ToolScheduler {
 public:
  ToolScheduler(const tools::ToolRegistry& registry, CallChannel& editor, std::string sessionId,
                const std::atomic<ApprovalMode>& mode, SessionApprovals configured = {});
  // Deciding by approvals another session holds too (a sub-agent's by its parent's).
  ToolScheduler(const tools::ToolRegistry& registry, CallChannel& editor, std::string sessionId,
                const std::atomic<ApprovalMode>& mode, std::shared_ptr<SharedApprovals> approvals);

  // Returns the parts of the user content that answers the calls: one
  // functionResponse per call, in call order, plus any inline data parts.
  // roundSize: the responses of the model's round these calls are part of
  // (0: just these calls), for the response shaper.
  std::vector<Part> run(const std::vector<FunctionCall>& calls, const CancelToken& cancel, size_t roundSize = 0);
  // Runs calls the person's own command asked for (a custom command's
  // `!{…}` and `@{…}`), shown, judged and asked about as the model's calls
  // are, but all decided before any runs: when one may not run, none does,
  // and the error holds its words for the person. The results come back as
  // the tools gave them (nothing is sent to the model from here), in order.
  // fromWorkspace: the command is a workspace's, whose programs wait for the
  // person's consent: each call is asked, whatever the mode or rules allow.
  Result<std::vector<tools::ToolResult>> runForPerson(const std::vector<FunctionCall>& calls, bool fromWorkspace,
                                                      const CancelToken& cancel);
  // True when the last run() ended because the editor cancelled a permission
  // question: the turn ends as cancelled.
  bool cancelledByPerson() const { return cancelledByPerson_; }
  // Numbers new calls after `shown` (a reopened session's calls keep their
  // ids in the editor, so a new call must never reuse one).
  void continueCallIdsAfter(uint64_t shown) { nextId_ = std::max<uint64_t>(nextId_, shown); }
  // The number in an id this scheduler gave ("call_7" → 7); 0 for any other id.
  static uint64_t callNumberOf(std::string_view id);
  // Text to add to the result of a call that read, searched or edited these
  // paths (context files found just in time); called on worker threads, so
  // it must be thread-safe. Set before the first run().
  using ContextSource = std::function<std::string(const std::vector<std::string>& paths)>;
  void setContextSource(ContextSource source) { contextSource_ = std::move(source); }
  // Shapes each call's response (e.g. holds it to a budget) before its final
  // update is sent: the editor is shown, and the record keeps, what the model
  // reads. Called on worker threads, so it must be thread-safe. Set before
  // the first run().
  using ResponseShaper = std::function<void(FunctionResponse& response, size_t roundSize)>;
  void setResponseShaper(ResponseShaper shaper) { shaper_ = std::move(shaper); }
  // Adds approvals granted after the session started (a workspace's
  // settings or policy rules the person allowed at its first turn, the
  // policy files read when the session was assembled). Any thread.
  void grant(const SessionApprovals& more);
  // Where "always" answers that outlast the session are kept; its rules join
  // the policy rules. Unset: such answers are not offered. Before the first run().
  void setKeptAnswers(std::shared_ptr<KeptAnswers> kept) { approvals_->setKeptAnswers(std::move(kept)); }
  // What is allowed now (a copy), and this session's own "always" answers.
  SessionApprovals approvals() const { return approvals_->snapshot(); }
  ApprovalSet sessionAnswers() const { return approvals_->answers(); }
  // Forgets one of this session's answers (settings that allow the same stay). False: no such answer.
  bool forget(const ApprovalKey& key) { return approvals_->forget(key); }
  // This session's approvals, to share with a sub-agent's.
  const std::shared_ptr<SharedApprovals>& sharedApprovals() const { return approvals_; }
  // The calls are a sub-agent's (its name, for policy rules' `subagent`);
  // readOnly: only what reads runs (withinReadOnly over every decision). Set
  // before the first run().
  void setSubagent(std::string name, bool readOnly) {
    subagent_ = std::move(name);
    readOnly_ = readOnly;
  }
  // What stands before and after each call besides approval (the session's
  // hooks); null: nothing. Set before the first run(); it outlives the scheduler.
  void setGate(CallGate* gate) { gate_ = gate; }
  CallGate* gate() const { return gate_; }

 private:
  struct Outcome {
    FunctionResponse response;
    std::vector<Part> inlineParts;
    std::string forPerson;  // a call that did not succeed: what the person was told
  };
  class CallRun;
  // A call that passed lookup and validation.
  struct Prepared {
    acp::ToolCall announce;
    json::Raw args;  // what the invocation was built from (a hook may have changed them)
    std::vector<std::string> changedKeys;  // the arguments a hook changed
    std::shared_ptr<const tools::Tool> tool;
    std::unique_ptr<tools::ToolInvocation> invocation;
  };

  void runBatch(const std::vector<FunctionCall>& calls, size_t begin, size_t end, std::vector<Outcome>& outcomes,
                const CancelToken& cancel);
  Outcome guarded(const FunctionCall& call, const CancelToken& cancel);
  // originalName: the call the model made, when this is a tail call.
  Outcome runOne(const FunctionCall& call, const CancelToken& cancel, int depth, const std::string& originalName = "");
  std::optional<Outcome> prepare(const FunctionCall& call, CallRun& run, Prepared& prepared);
  // The gate's say before the call; an outcome only when the call ends here.
  std::optional<Outcome> gateBefore(const FunctionCall& call, CallRun& run, Prepared& prepared,
                                    const std::string& originalName, bool& ask, const CancelToken& cancel);
  // The gate's say after the call ran: an outcome only when the result is withheld or the turn stops.
  std::optional<Outcome> gateAfter(const FunctionCall& call, CallRun& run, const Prepared& prepared,
                                   const std::string& originalName, tools::ToolResult& result, const CancelToken& cancel);
  // forcedWhy, when not empty: someone wants the person asked (a hook, a
  // workspace's command), so an allow becomes a question and a deny stays;
  // it is what the question says of a tool that asks nothing itself.
  std::optional<Outcome> approve(const FunctionCall& call, CallRun& run, Prepared& prepared, std::string_view forcedWhy,
                                 const CancelToken& cancel);
  ApprovalDecision decide(const ApprovalQuery& query);
  // Acts on an "always" answer: this session's, or kept (telling the person where).
  void rememberAlways(const PermissionChoice& choice, const ApprovalQuery& query, CallRun& run);
  AlwaysOffers offersFor(const ApprovalDecision& decision) const;
  // Moves an edit's texts out of `details` into the request; `why` (the
  // decision's words for the person, if any) follows what is shown.
  acp::RequestPermissionRequest permissionRequest(const CallRun& run, const Prepared& prepared,
                                                  tools::ConfirmationDetails& details, const std::string& why,
                                                  AlwaysOffers offers) const;
  // Read-only calls and sub-agents run in parallel batches.
  bool runsInParallel(const FunctionCall& call) const;
  void addFoundContext(const tools::Tool& tool, const tools::ToolInvocation& invocation, tools::ToolResult& result) const;
  std::string nextCallId();

  const tools::ToolRegistry& registry_;
  CallChannel& editor_;
  std::string sessionId_;
  const std::atomic<ApprovalMode>& mode_;
  std::shared_ptr<SharedApprovals> approvals_;
  std::string subagent_;  // empty: the session's own calls
  bool readOnly_ = false;
  std::atomic<uint64_t> nextId_{0};
  std::atomic<bool> cancelledByPerson_{false};
  ContextSource contextSource_;
  ResponseShaper shaper_;
  CallGate* gate_ = nullptr;
  size_t roundSize_ = 1;  // of the run in progress
};

}  // namespace lathe::engine
