// A custom command's prompt as Gemini CLI 0.61 reads it, split into the text
// it sends and what it injects: `@{path}` (a file or folder of the
// workspace) and `!{command}` (a shell line's output), each with balanced
// braces inside. `{{args}}` is the text typed after the command's name: as
// typed in the text, shell-quoted inside `!{…}` (as Gemini CLI quotes it for
// bash); a prompt without `{{args}}` gets the whole command line typed
// appended after a blank line, when anything followed the name. Unlike
// Gemini CLI, what an `@{…}` brings in is never read for `!{…}` or
// `{{args}}`: a file's text is data. Pure; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/result.h"

namespace lathe::engine {

struct TemplatePiece {
  enum class Kind { text, file, shell };
  Kind kind = Kind::text;
  std::string value;  // the text, the path (trimmed), or the shell line (args quoted in)
};

// The pieces of `prompt` run with `args` (typed after the name; `commandLine`
// is the whole line typed, "/name args"). An unclosed `@{` or `!{`, or an
// empty `@{}`, is an error naming the command. Empty `!{}` injects nothing.
Result<std::vector<TemplatePiece>> expandTemplate(std::string_view prompt, std::string_view args,
                                                  std::string_view commandLine, const std::string& commandName);

// `arg` quoted for bash as Gemini CLI quotes it (shell-quote's rules); empty
// stays empty.
std::string quoteShellArg(std::string_view arg);

}  // namespace lathe::engine
