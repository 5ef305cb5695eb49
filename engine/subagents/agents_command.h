// /agents (and /agents list): the sub-agents of the session, those that can
// be started and those that cannot and why (settings, consent, a bad file).
#pragma once

#include <memory>

#include "engine/commands/command_registry.h"
#include "engine/subagents/agent_catalog.h"

namespace lathe::engine {

void addAgentsCommand(CommandRegistry& commands, std::shared_ptr<AgentCatalog> catalog);

}  // namespace lathe::engine
