// A session's slash commands, as one of its hooks: it owns their registry,
// claims a prompt that names one of them (command_dispatch.h) and announces
// them once the editor has the session.
#pragma once

#include <vector>

#include "engine/commands/command_registry.h"
#include "engine/session/session.h"
#include "engine/session/turn_hooks.h"

namespace lathe::engine {

class SessionCommands final : public TurnHooks {
 public:
  explicit SessionCommands(Session& session);

  CommandRegistry& registry() { return registry_; }

  ClaimedPrompt claimPrompt(const std::vector<acp::ContentBlock>& blocks) override;
  void onEditorReady() override { registry_.announce(); }

 private:
  Session& session_;  // the hook is the session's: it never outlives it
  CommandRegistry registry_;
};

}  // namespace lathe::engine
