// /permissions: what runs without asking, numbered from 1, each with where it
// comes from: the "always" answers kept for this workspace or every
// workspace, the allow rules of policy files, the settings' allowed lists,
// and this session's own answers. `/permissions revoke N` removes a kept
// answer (from its file) or one of this session's, and says so; the others
// are changed where they are written. Never reaches the model. Call before
// the first turn.
#pragma once

#include <memory>

#include "engine/commands/command_registry.h"
#include "engine/config/kept_answers_store.h"
#include "engine/session/session.h"

namespace lathe::engine {

// `kept` may be null: nothing is kept beyond the session.
void addPermissionsCommand(Session& session, CommandRegistry& commands, std::shared_ptr<KeptAnswersStore> kept);

}  // namespace lathe::engine
