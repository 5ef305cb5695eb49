// The skills family: activate_skill (Gemini CLI's name and parameter), which
// gives the model a skill's instructions and the list of its resources and
// makes the skill's folder readable (tools/core/readable_folders.h). Also
// what the person's own /<skill> command sends the model, the same text.
#pragma once

#include <memory>
#include <string>

#include "tools/core/registry.h"
#include "tools/core/tool.h"
#include "tools/core/tool_context.h"
#include "tools/skills/skill.h"

namespace lathe::tools {

// Adds activate_skill when the context has enabled skills (and the filter allows it).
void registerSkillTools(ToolRegistry& registry, const ToolContext& context);
std::unique_ptr<Tool> makeActivateSkillTool(const ToolContext& context);

// Activates `skill` for the session (its folder becomes readable) and returns
// the text the model gets: <activated_skill> with the instructions and the
// resources. Reads the folder; any thread.
std::string activateSkill(const ToolContext& context, const Skill& skill);

}  // namespace lathe::tools
