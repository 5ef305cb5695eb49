// The system instruction sent with every model request. Pure.
#pragma once

#include <string>

#include "tools/core/workspace.h"

namespace lathe::engine {

std::string buildSystemPrompt(const tools::Workspace& workspace);

}  // namespace lathe::engine
