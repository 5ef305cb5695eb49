// Whether a sed invocation only prints: no in-place editing, no script file,
// and scripts without the commands that write files or run programs (w, W,
// e, and the w / e flags of s). GNU sed syntax. Pure; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lathe::tools::shell {

// `arguments` are the words after "sed", literal.
bool sedOnlyPrints(const std::vector<std::string>& arguments);
// One sed script (the text of -e or the first operand).
bool sedScriptOnlyPrints(std::string_view script);

// Whether a sed invocation may run shell commands (the e command, the e flag
// of s, a script file, or a script this scanner cannot read): what the line
// runs is then more than it shows.
bool sedMayRunCommands(const std::vector<std::string>& arguments);

}  // namespace lathe::tools::shell
