// A session's hooks, from every source with its origin (the person's
// settings and extensions when the session starts, its workspace's once the
// person agreed), and which of them an event runs: those of the event whose
// matcher takes the tool name (a regular expression; one that does not
// compile is compared as it is) or the trigger ("startup", "auto", ...: an
// exact match), with "" and "*" taking everything; identical hooks (name and
// command) once; workspace hooks first, then the person's, then extensions'
// (Gemini CLI's order); none when hooksConfig.enabled is false, none that
// hooksConfig.disabled names. Thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/config/hook_settings.h"

namespace lathe::engine {

class HookRegistry {
 public:
  explicit HookRegistry(HookOptions options) : options_(std::move(options)) {}

  // The one way in for every source; its problems are not kept here (the
  // caller tells them).
  void add(const HookSet& set);

  struct Plan {
    std::vector<std::shared_ptr<const HookDefinition>> hooks;
    bool sequential = false;  // some matching definition asked for it: all run one by one
  };
  // `targets`: the names the matcher is tried against (a tool's names, or
  // the trigger); empty for events without one (every hook of the event runs).
  Plan plan(HookEvent event, const std::vector<std::string>& targets) const;
  bool has(HookEvent event) const;
  bool empty() const;
  const HookOptions& options() const { return options_; }

 private:
  struct Entry;
  HookOptions options_;
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<const Entry>> entries_;
};

}  // namespace lathe::engine
