// The built-in tools, registered in one place.
#include "tools/builtin/builtin_tools.h"

#include "tools/ask/ask_tools.h"
#include "tools/files/file_tools.h"
#include "tools/memory/memory_tools.h"
#include "tools/search/search_tools.h"
#include "tools/shell/shell_tools.h"
#include "tools/skills/skill_tools.h"
#include "tools/syntax/syntax_tools.h"
#include "tools/todos/todo_tools.h"
#include "tools/web/web_tools.h"

namespace lathe::tools {

void registerBuiltinTools(ToolRegistry& registry, const ToolContext& context, const ShellOptions& shell) {
  registerFileTools(registry, context);
  registerSearchTools(registry, context);
  registerSyntaxTools(registry, context);
  registerShellTools(registry, context, shell);
  registerTodoTools(registry, context);
  registerWebTools(registry, context);
  registerMemoryTools(registry, context);
  registerSkillTools(registry, context);
  registerAskTools(registry, context);
}

}  // namespace lathe::tools
