// What a person must see and approve before a shell command line runs, built
// from its parse. Pure; any thread.
#pragma once

#include <string>

#include "tools/shell/shell_analysis.h"
#include "tools/core/tool.h"

namespace lathe::tools::shell {

// A line that did not parse cleanly, or that has a reason to always ask, is
// not understood and gets no root commands: nothing about it is pre-approved.
// Each command keeps only its leading literal words, so a computed word can
// never match a configured prefix.
ExecConfirmation execConfirmationFor(std::string command, const ShellAnalysis& analysis);

}  // namespace lathe::tools::shell
