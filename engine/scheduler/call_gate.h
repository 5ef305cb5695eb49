// What may stand between a tool call and its running, besides approval (the
// session's hooks, engine/hooks): before it, refuse it, end the turn,
// change its arguments or have the person asked even when the policy would
// not ask; after it, withhold its result from the model or add to it, chain
// another tool, end the turn; and hear when the person is asked. Every
// verdict carries notes for the person, shown on the call's card. Called on
// the calls' worker threads (calls of a batch run at once), so it must be
// thread-safe; each method blocks its call only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/model/content.h"
#include "engine/scheduler/hook_note.h"
#include "protocol/base/cancel.h"
#include "tools/core/registry.h"
#include "tools/core/tool.h"

namespace lathe::engine {

// The call as a gate sees it.
struct GatedCall {
  const std::string& name;                // the tool's registered name
  const json::Raw& args;                  // as the call will run (a JSON object)
  const tools::ToolSource* source;        // where the tool comes from; null if unknown
  const std::string& originalName;        // the call the model made, for a tail call; else empty
};

struct BeforeCall {
  enum class Action { run, refuse, stop } action = Action::run;
  std::string reason;                 // refuse, stop: for the model (and the person)
  std::optional<json::Raw> args;      // run: these arguments instead (a JSON object)
  bool ask = false;                   // run: ask the person whatever the policy says (a deny still wins)
  std::vector<HookNote> notes;
};

struct AfterCall {
  enum class Action { keep, withhold, stop } action = Action::keep;
  std::string reason;                      // withhold: what the model reads instead; stop: why
  std::string addedContext;                // keep: appended to what the model reads
  std::optional<tools::TailCall> tail;     // keep: run this tool next; its result answers the call
  std::vector<HookNote> notes;
};

class CallGate {
 public:
  virtual ~CallGate() = default;
  virtual BeforeCall beforeCall(const GatedCall& call, const CancelToken& cancel) = 0;
  // `result` is what the tool returned (its error too), before output budgets.
  virtual AfterCall afterCall(const GatedCall& call, const tools::ToolResult& result, const CancelToken& cancel) = 0;
  // The person is about to be asked about the call; notes join the question.
  // `title`: the call's, as the question shows it.
  virtual std::vector<HookNote> onPermissionAsked(const tools::ConfirmationDetails& details, const std::string& title,
                                                  const CancelToken& cancel) = 0;
};

}  // namespace lathe::engine
