// Skills as the person's own commands, as Gemini CLI 0.61 offers them: each
// enabled skill is /<name> (blanks made '-'; an extension's skill is always
// /<extension>:<name>; a name taken gets a number), which activates the
// skill and asks the model to use it: the text typed after the name, or
// "Use the skill <name>". /skills lists the skills (`nodesc` leaves the
// descriptions out) and `/skills reload` finds them again.
#pragma once

#include <functional>

#include "engine/commands/command_registry.h"
#include "engine/session/session.h"
#include "tools/skills/skill_set.h"

namespace lathe::engine {

// Finds the session's skills anew (for /skills reload).
using FindSkills = std::function<tools::FoundSkills()>;

// Adds /skills and a command per skill the session has now.
void addSkillCommands(Session& session, CommandRegistry& registry, FindSkills find);
// Offers a command per skill the session has now (after its skills changed).
void refreshSkillCommands(Session& session, CommandRegistry& registry);

}  // namespace lathe::engine
