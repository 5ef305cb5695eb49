// Arguments of an MCP prompt run as a slash command, from the text after the
// command's name. One rule: the text is split into words as a shell would
// (blanks separate, "..." and '...' group, a backslash escapes the next
// character outside single quotes); a word `--name=value` sets that argument;
// every other word fills the next declared argument not set by name, in the
// order the server declared them. An unknown --name, more words than
// arguments, an unclosed quote or a missing required argument is an error
// naming what is wrong, and nothing is sent. Pure.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/result.h"
#include "tools/mcp/prompts.h"

namespace lathe::engine {

// The arguments by name, or the error for the person.
Result<std::map<std::string, std::string>> promptArguments(const tools::mcp::ListedPrompt& prompt,
                                                           std::string_view input);

// The input hint for a prompt: its arguments in order, optional ones in [].
std::string promptHint(const tools::mcp::ListedPrompt& prompt);

}  // namespace lathe::engine
