// Words of a bash command as bash would pass them, read from tree-sitter-bash
// nodes: quotes removed, escapes applied, and whether the text is fixed (no
// expansion, substitution, glob or brace expansion). Pure; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tools/shell/shell_analysis.h"
#include "tools/syntax/syntax_tree.h"

namespace lathe::tools::shell {

struct Word {
  std::string text;  // unquoted when literal, as written otherwise
  bool literal = true;
};
using Words = std::vector<Word>;

// One word node (word, string, raw_string, concatenation, command_name, ...).
Word evaluateWord(const syntax::SyntaxTree& tree, TSNode node);
// Appends `next` to `word`: bash joins words that touch (or are split only by
// a line continuation) into one.
void joinWord(Word& word, const Word& next);

// The body of `...` as the inner shell sees it (\\, \` and \$ unescaped).
std::string unescapeBackticks(std::string_view body);
// An unquoted here-doc body as the shell reads it (\\, \$, \` and \newline).
std::string unescapeHeredoc(std::string_view body);

// The program a command name runs when we can trust it to be the usual one:
// a bare name ("ls"), or one in /bin, /usr/bin, /usr/local/bin, /sbin or
// /usr/sbin ("/usr/bin/ls" -> "ls"). Empty for "./ls", "/tmp/x/sudo", ...
std::string_view trustedName(std::string_view name);
// True for words that start an option ("-x", "--long"), not "-" alone.
bool isOption(const Word& word);

CommandWords toCommandWords(const Words& words, bool extraArguments);
Words slice(const Words& words, size_t from);

}  // namespace lathe::tools::shell
