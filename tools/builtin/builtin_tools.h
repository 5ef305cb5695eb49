// The built-in tools: each family (files, search, syntax, shell, todos, web,
// memory, skills) registers its own; this is the one place that lists the families.
#pragma once

#include "tools/core/registry.h"
#include "tools/core/tool_context.h"
#include "tools/shell/shell_setup.h"

namespace lathe::tools {

// Adds every built-in tool the registry's filter allows, and their aliases;
// the shell tools get their own setup (options, the session's background commands).
void registerBuiltinTools(ToolRegistry& registry, const ToolContext& context, const ShellOptions& shell);

}  // namespace lathe::tools
