// What a shell command line would run, from a real parse (tree-sitter-bash):
// every simple command inside pipelines, lists, subshells, substitutions,
// process substitutions, functions and here-docs, with wrappers (sudo, env,
// bash -c, eval, xargs, find -exec, nohup, time, ...) looked through. The
// approval policy judges commands from this, never from string matching.
// Pure; any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/cancel.h"

namespace lathe::tools::shell {

// One simple command. words[0] is the command name as written.
struct CommandWords {
  std::vector<std::string> words;
  // Every word is literal text: no parameter expansion, substitution or glob
  // that could change what runs or what it touches. False too for commands
  // that get more arguments at run time (xargs cmd, find -exec cmd {}).
  bool literal = true;
  // How many leading words are literal text (when `literal` is true, all of
  // them, whatever this says); prefix matching only looks at these.
  size_t literalPrefix = 0;
  const std::string& name() const;
};

struct ShellAnalysis {
  // False when the line did not parse cleanly (an ERROR or MISSING node, here
  // or in a script it hands to bash -c / eval / a here-doc), was cancelled,
  // or runs no command at all (empty, comments, bare assignments). Nothing
  // about it is trusted: commands and writtenFiles are then empty.
  bool parsed = false;
  // Every command the line would run, in source order. A wrapper that changes
  // who or how a command runs (sudo, doas, su, find -exec) is listed itself
  // as well as the command it runs; transparent ones (time, nohup, env,
  // exec, command, builtin, nice, timeout, xargs, ...) are replaced by the
  // command they run, and bash -c / sh -c / eval by the commands of their
  // script. A wrapper with nothing to run is listed as itself.
  std::vector<CommandWords> commands;
  // Files written through redirections (>, >>, &>, >|; /dev/null and fd
  // duplications excluded).
  std::vector<std::string> writtenFiles;
  // Why this line can never be allowed without asking (e.g. "eval of dynamic
  // text", "bash -c with a non-literal script", "defines a function").
  std::vector<std::string> reasons;
  // Why the line, though understood, is not judged read-only (an assignment
  // not known to be harmless): it is asked about, and "always" still applies.
  std::vector<std::string> notReadOnly;
  // Why some command may run commands the line does not name (sed's e, awk's
  // system(), inline interpreter code): exclusions cannot be checked then.
  std::vector<std::string> runsUnseen;
  // Some command is started in the background (`&`, coproc): in a sandbox it
  // ends when the line does.
  bool startsBackground = false;
};

ShellAnalysis analyzeShellCommand(std::string_view command, const CancelToken& cancel = CancelToken());

// The distinct command names, in order: what "allow always" remembers.
std::vector<std::string> rootCommands(const ShellAnalysis& analysis);

// True when the whole line only reads: parsed, no reasons, no written files,
// and every command is known to be read-only with its arguments (ls, cat,
// grep, git status/diff/log/show, sed -n '1,5p', ...), run by a bare name
// or from /bin, /usr/bin (never "./ls"). A conservative table: anything not
// in it (awk, tee, npm, ...) is not read-only.
bool isReadOnly(const ShellAnalysis& analysis);

// Gemini CLI settings entries such as "run_shell_command(git status)": a
// command matches when its words start with the prefix, word for word (so
// "git status" matches "git status --short" but neither "git statusx" nor
// "git -C dir status"), and every word the prefix covers is literal text.
// words[0] is compared as written: "/bin/rm" does not match "rm".
bool matchesPrefix(const CommandWords& command, const std::vector<std::string>& prefix);
// Parses "run_shell_command(git status)" (or Gemini CLI's older
// "ShellTool(git status)") into {"git", "status"}, with shell quoting;
// empty when the entry is not a shell entry or names the whole tool.
std::vector<std::string> shellPrefixFromSetting(std::string_view entry);

}  // namespace lathe::tools::shell
