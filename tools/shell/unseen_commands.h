// Commands whose arguments make them run programs the line does not name:
// sed's e command, awk's system() and pipes, an interpreter's inline code, a
// script file read at run time. With commands excluded by the settings, such
// a line cannot be checked against the exclusions, so it is refused. Pure;
// any thread.
#pragma once

#include <optional>
#include <string>

#include "tools/shell/shell_analysis.h"

namespace lathe::tools::shell {

// Why this command may run commands it does not show ("sed's e command"),
// or nullopt when it runs only what it names.
std::optional<std::string> runsUnseenCommands(const CommandWords& command);

}  // namespace lathe::tools::shell
