// /extensions: the extensions installed for Gemini CLI and Lathe
// (~/.gemini/extensions), whether each is enabled here, and what each
// brings. They are managed with `lathe extensions ...` on the command line,
// and changes apply from the next session (as in Gemini CLI).
#pragma once

#include <vector>

#include "engine/commands/command_registry.h"
#include "engine/extensions/extension.h"

namespace lathe::engine {

void addExtensionsCommand(CommandRegistry& registry, std::vector<Extension> extensions);

// What /extensions prints (and `lathe extensions list`), for those extensions.
std::string describeExtensions(const std::vector<Extension>& extensions);

}  // namespace lathe::engine
