// Looking through commands that run other commands: sudo, doas, su, env,
// time, nohup, exec, command, builtin, nice, ionice, timeout, stdbuf, setsid,
// xargs, find -exec, watch, busybox, coproc, bash/sh -c, eval, trap, and
// shells fed by a here-doc or here-string. Also the builtins that change what
// later names run (source, hash -p, alias) and assignments to variables such
// as PATH or LD_PRELOAD. Pure; any thread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "tools/shell/shell_analysis.h"
#include "tools/shell/shell_words.h"

namespace lathe::tools::shell {

// Where a command's standard input comes from, when the line says so.
struct ShellInput {
  enum class Kind { inherited, heredoc, herestring, file };
  Kind kind = Kind::inherited;
  std::string text;     // the here-doc body or here-string, as the command reads it
  bool literal = true;  // false when the text holds expansions
};

struct ResolveContext {
  ShellAnalysis& out;
  // Analyzes a script a command runs (bash -c, eval, a here-doc to sh, ...).
  std::function<void(std::string_view script)> analyzeScript;
};

// Adds what `words` runs to context.out: its commands, reasons, written files.
void resolveCommand(const Words& words, const ShellInput& input, ResolveContext& context);

// Why assigning `value` to `name` (FOO=1 cmd, env FOO=1, export FOO=1) makes
// a line unsafe to allow without asking: PATH, LD_*, BASH_ENV, PAGER, ...
std::optional<std::string> assignmentHazard(std::string_view name, const Word& value);

// True for the few assignments that cannot change what a read-only command
// runs, reads or writes (LANG, LC_*, TZ, COLUMNS, NO_COLOR, PAGER=cat, ...).
// Any other (HOME=, XDG_CONFIG_HOME=, GIT_DIR=, RIPGREP_CONFIG_PATH=, ...)
// makes the line not read-only: asked about, or run sealed never.
bool harmlessAssignment(std::string_view name, const Word& value);

// True when bash would evaluate `text` as arithmetic that names a variable or
// holds a substitution: a variable's value can then run commands
// (x='a[$(cmd)]'; echo $((x))).
bool arithmeticNamesVariables(std::string_view text);

}  // namespace lathe::tools::shell
