// The plan mode tools, with Gemini CLI 0.61's names and parameters:
// enter_plan_mode (asks, then switches the session to plan mode) and
// exit_plan_mode (shows the person the plan and asks which mode to carry it
// out in; refusing keeps plan mode). Declared only where they apply: enter
// outside plan mode and YOLO, exit in plan mode.
#pragma once

#include <memory>
#include <vector>

#include "tools/core/registry.h"
#include "tools/core/tool.h"
#include "tools/core/tool_context.h"
#include "tools/core/tool_declaration.h"

namespace lathe::tools {

// Adds both when the session has a plans folder (context.plan) and the
// registry's filter allows them.
void registerPlanTools(ToolRegistry& registry, const ToolContext& context);

std::unique_ptr<Tool> makeEnterPlanModeTool(const ToolContext& context);
std::unique_ptr<Tool> makeExitPlanModeTool(const ToolContext& context);

// The declarations as the session's mode has them: without the plan tool
// that does not apply, and in plan mode with write_file and replace saying
// they write plans only, and where.
void shapeForPlanMode(std::vector<ToolDeclaration>& declarations, const PlanMode* plan, bool yolo);

}  // namespace lathe::tools
