// Fires one hook event: plans its hooks (hook_registry.h), builds the input
// every hook reads on stdin (Gemini CLI's base fields session_id,
// transcript_path, cwd, hook_event_name and timestamp, then the event's
// own), and runs them: in parallel (on executor workers, this thread taking
// one), or one after another when a definition asks for `sequential`, each
// then reading what the one before changed (BeforeAgent: the prompt with its
// added context; BeforeModel: the request; BeforeTool: the tool's input).
// Blocks the calling thread until all have ended; thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/hooks/hook_registry.h"
#include "engine/hooks/hook_result.h"
#include "engine/hooks/hook_runner.h"

namespace lathe::engine {

struct HookRun {
  std::shared_ptr<const HookDefinition> hook;
  HookResult result;
};

using HookRunner = std::function<HookResult(const HookDefinition&, const std::string& inputJson, const HookPlace&,
                                            const CancelToken&)>;

class HookDispatcher {
 public:
  HookDispatcher(std::shared_ptr<HookRegistry> registry, HookPlace place, HookRunner runner = runHook);

  // `fields`: the event's own input fields, a JSON object's text. The runs
  // come in plan order; with `only`, of the planned hooks only those it takes.
  using Only = std::function<bool(const HookDefinition&)>;
  std::vector<HookRun> fire(HookEvent event, const std::vector<std::string>& targets, const std::string& fields,
                            const CancelToken& cancel, const Only& only = {}) const;
  bool has(HookEvent event) const { return registry_->has(event); }
  HookRegistry& registry() const { return *registry_; }

 private:
  std::string inputFor(HookEvent event, const std::string& fields) const;

  std::shared_ptr<HookRegistry> registry_;
  HookPlace place_;
  HookRunner runner_;
};

// What a sequential hook's answer changes in the input the next one reads.
void chainHookInput(HookEvent event, const HookResult& result, json::Document& input);

// Copies `from`'s members over `into`'s of the same name, adding the others
// (a shallow merge of two objects; anything else is left alone).
void overlayMembers(json::Value& into, const json::Value& from, json::Document::AllocatorType& alloc);

}  // namespace lathe::engine
