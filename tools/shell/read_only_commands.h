// Which commands only read, judged from their words: a conservative table
// (ls, cat, grep, git status/diff/log/show, sed -n '...p', ...). Anything not
// in it is not read-only. Pure; any thread.
#pragma once

#include "tools/shell/shell_analysis.h"

namespace lathe::tools::shell {

// One resolved command (after wrappers were looked through). Its name must
// be trusted (see trustedName: "ls", "/usr/bin/ls", not "./ls"); arguments that are not literal are
// accepted only by commands no argument can turn into a writer.
bool isReadOnlyCommand(const CommandWords& command);

}  // namespace lathe::tools::shell
