// Walks a tree-sitter-bash parse of a script and records what it runs:
// commands (wrappers resolved), files written by redirections, and reasons
// never to allow it without asking. Pure; any thread.
#pragma once

#include <string_view>

#include "protocol/base/cancel.h"
#include "tools/shell/shell_analysis.h"

namespace lathe::tools::shell {

// Adds what `script` runs to `out`; a parse error (or cancellation) sets
// out.parsed to false. `scriptDepth` counts scripts nested through bash -c,
// eval, here-docs to a shell and backticks; `nodeDepth` is how deep in the
// enclosing trees the script sits (the walk stops at a fixed depth).
void analyzeScript(std::string_view script, ShellAnalysis& out, const CancelToken& cancel, int scriptDepth,
                   int nodeDepth = 0);

}  // namespace lathe::tools::shell
