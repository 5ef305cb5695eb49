// The plan mode tools, registered together, and the declarations plan mode shapes.
#include "tools/plan/plan_tools.h"

#include <algorithm>

#include "tools/plan/plan_mode.h"

namespace lathe::tools {

void registerPlanTools(ToolRegistry& registry, const ToolContext& context) {
  if (!context.plan) return;
  (void)registry.add(makeEnterPlanModeTool(context));
  (void)registry.add(makeExitPlanModeTool(context));
}

void shapeForPlanMode(std::vector<ToolDeclaration>& declarations, const PlanMode* plan, bool yolo) {
  const bool on = plan && plan->active();
  std::erase_if(declarations, [&](const ToolDeclaration& d) {
    return (d.name == "enter_plan_mode" && (on || yolo)) || (d.name == "exit_plan_mode" && !on);
  });
  if (!on) return;
  for (auto& d : declarations) {
    if (d.name != "write_file" && d.name != "replace") continue;
    d.description = "In plan mode this writes plans only: Markdown files directly in " + plan->directory() +
                    "/ (a file name such as feature-x.md is enough); it cannot change source code. " + d.description;
  }
}

}  // namespace lathe::tools
