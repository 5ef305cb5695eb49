// The system instruction sent with every model request. Pure.
#pragma once

#include <string>

#include "tools/core/workspace.h"

namespace lathe::engine {

// `context`: the context files' section (ProjectMemory::promptSection), last.
std::string buildSystemPrompt(const tools::Workspace& workspace, const std::string& context = {});

}  // namespace lathe::engine
