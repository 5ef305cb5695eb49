// How the runs of one event come together: any hook that blocks (decision
// "deny" or "block", exit 2) blocks, any that asks asks, any that says
// `continue: false` stops the turn; reasons, messages and added context are
// kept from every hook; hookSpecificOutput is merged, a later hook's fields
// over an earlier's (BeforeTool's tool_input key by key). Unlike Gemini CLI,
// where a later hook's "allow" can undo an earlier "deny" for the model
// events, a block here is never undone. A hook that failed blocks the events
// that guard something (failsClosed): a call, a prompt, a request or a reply
// it meant to stop never goes through because it failed.
//
// Each hook the person should hear of gets a note (hook_note.h): failures,
// blocks, stops and asks always, with its words; others when they said
// something or when notifications are on (hooksConfig.notifications), unless
// they asked for suppressOutput. Context a hook adds reaches the model
// marked as the hook's, as data: <hook_context source="NAME (EVENT)">, its
// angle brackets escaped so it cannot close the mark. Pure; any thread.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "engine/hooks/hook_dispatcher.h"
#include "engine/scheduler/hook_note.h"

namespace lathe::engine {

// The events whose hooks may stop something, so a failure stops it.
bool failsClosed(HookEvent event);

struct HookVerdict {
  bool blocked = false;
  bool ask = false;
  bool stop = false;
  std::string reason;       // why it is blocked (or asked): the hooks' reasons, one per line
  std::string stopReason;   // why the turn stops
  std::string context;      // added context, marked, one hook per line; empty: none
  std::vector<HookNote> notes;
  json::Document specific;  // the merged hookSpecificOutput (an object)
  bool ran() const { return !notes.empty() || blocked || stop; }
};

HookVerdict judgeHooks(HookEvent event, const std::vector<HookRun>& runs, bool notifications);

// Text a hook gave for the model, marked as its.
std::string markHookContext(const HookDefinition& hook, const std::string& text);

// BeforeToolSelection: which tools the request offers. A hook that failed
// counts as "NONE" (fail closed). Names: the union of the hooks' lists; none
// listed leaves every tool offered.
struct ToolSelection {
  enum class Mode { automatic, any, none } mode = Mode::automatic;
  std::set<std::string> allowed;  // empty: no restriction
};
ToolSelection selectTools(const std::vector<HookRun>& runs);

}  // namespace lathe::engine
