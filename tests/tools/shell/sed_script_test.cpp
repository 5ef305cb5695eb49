// sed scripts read the way GNU sed reads them: labels end at a blank, bracket
// expressions hold classes ("[[:alpha:]/]" keeps its slash), blanks may sit
// among the s flags, -e pieces join with newlines. Each row says whether the
// script only prints; where GNU sed is installed, `sed --sandbox` (which
// refuses scripts that write, run or read files) checks the table itself, so
// a row cannot claim what GNU sed does not do.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"
#include "tools/shell/sed_script.h"

using lathe::testing::TempDir;
using lathe::tools::shell::sedMayRunCommands;
using lathe::tools::shell::sedOnlyPrints;

namespace {

struct Row {
  std::vector<std::string> args;  // the words after "sed"
  bool onlyPrints;
};

const Row kRows[] = {
    // Labels end at blanks: "b end w file" branches, then writes.
    {{"-n", "b end w pwned\n:end"}, false},
    {{"-n", ":a w pwned"}, false},
    {{"-n", "t x w pwned\n:x"}, false},
    {{"-n", "T x\tw pwned\n:x"}, false},
    {{"-n", "bx;:x;p"}, true},
    {{"-n", "b x ; p; :x"}, true},
    {{"-n", ":loop\nN\n$!b loop\np"}, true},
    // Bracket expressions with classes hold the delimiter.
    // (read with the class ending at its first "]", these hide "w d/e/g" as an s command)
    {{"-n", "s/[[:alpha:]/]/;p;s/w d/e/g"}, false},
    {{"-n", "s/[[:space:]/]/;p;s/w d/e/p"}, false},
    {{"-n", "s/[[.a.]/]/;p;s/w d/e/g"}, false},
    {{"-n", "s/[[=a=]/]/;p;s/w d/e/g"}, false},
    {{"-n", "s/[[:alpha:]/]/X/gp"}, true},
    {{"-n", "s/[]/]/X/p"}, true},
    {{"-n", "s/[^]/]/X/p"}, true},
    {{"-n", "s/[\\/]/X/p"}, true},
    {{"s/[[:alpha:]]/X/g"}, true},
    {{"s/[[:/]/X/gp"}, false},  // an unterminated class: GNU sed refuses it
    {{"s/[a/X/p"}, false},
    {{"y/[/X/;p"}, true},  // y has no bracket expressions
    // Blanks among the s flags, and the w / e flags after them.
    {{"s/h/H/ w pwned"}, false},
    {{"s/h/H/g w pwned"}, false},
    {{"s/h/H/ e"}, false},
    {{"-n", "s/h/H/ p"}, true},
    {{"-n", "s/h/H/gp"}, true},
    // -e pieces are one script, joined by newlines.
    {{"-e", "a\\", "-e", "w pwned"}, true},  // the second piece is the text of a
    {{"-e", "p", "-e", "w pwned"}, false},
    {{"-n", "-e", "s/a/b/", "-e", "1e touch pwned"}, false},
    {{"-e", "$a text; w pwned"}, true},  // text to the end of the line
    {{"-e", "$a text\nw pwned"}, false},
    // Comments, addresses and the other commands.
    {{"#n\n/x/p"}, true},
    {{"-n", "\\%a/b%p"}, true},
    {{"-n", "0,/re/{p}"}, true},
    {{"-n", "1~2p;5,+3l"}, true},
    {{"5q7"}, true},
    {{"-n", "/x/W pwned"}, false},
    {{"-n", "1e"}, false},
    {{"--expression=1w pwned"}, false},
    {{"-s", "-n", "$="}, true},
    {{"-i", "p"}, false},
};

// Whether GNU sed with --sandbox accepts the script (sandbox mode refuses e,
// r and w, the commands and the flags). Runs in `dir`, where nothing may
// appear. -1 when no GNU sed with --sandbox is installed.
int sandboxAccepts(const std::vector<std::string>& args, const TempDir& dir) {
  if (std::system("sed --sandbox -n p </dev/null >/dev/null 2>&1") != 0) return -1;
  std::string line = "cd '" + dir.str() + "' && sed --sandbox";
  for (const auto& a : args) {
    std::string quoted;
    for (char c : a) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += " '" + quoted + "'";
  }
  line += " </dev/null >/dev/null 2>&1";
  int status = std::system(line.c_str());
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 1 : 0;
}

}  // namespace

TEST_CASE("sed: scripts are read as GNU sed reads them") {
  TempDir dir;
  int checkedByGnuSed = 0;
  for (const auto& row : kRows) {
    std::string shown;
    for (const auto& a : row.args) shown += "[" + a + "] ";
    INFO("sed " << shown);
    CHECK(sedOnlyPrints(row.args) == row.onlyPrints);
    int accepts = sandboxAccepts(row.args, dir);
    if (accepts < 0) continue;
    ++checkedByGnuSed;
    // A script GNU sed refuses in sandbox mode writes, runs or reads a file
    // (or does not parse): never "only prints". -i is no script matter.
    if (row.onlyPrints) CHECK(accepts == 1);
    bool inPlace = row.args.front() == "-i";
    if (accepts == 1 && !inPlace) CHECK(row.onlyPrints);
  }
  CHECK(dir.entries().empty());  // the sandbox refused every write
  if (checkedByGnuSed == 0) WARN("no GNU sed with --sandbox: the table was not checked against it");
}

TEST_CASE("sed: scripts that may run shell commands are told apart from ones that write") {
  const std::pair<std::vector<std::string>, bool> rows[] = {
      {{"s/a/b/e", "f"}, true},
      {{"-n", "1e ls", "f"}, true},
      {{"-e", "p", "-e", "s/x/y/ge", "f"}, true},
      {{"-ne", "s/x/y/e", "f"}, true},
      {{"-f", "script.sed", "f"}, true},
      {{"--file=script.sed", "f"}, true},
      {{"s/a/b/w out.txt", "f"}, false},  // writes a file, runs nothing
      {{"-i", "s/a/b/", "f"}, false},
      {{"-i.bak", "-e", "s/a/b/", "f"}, false},
      {{"-n", "1,5p", "f"}, false},
      {{"-e", "p", "notes.txt"}, false},  // a file operand is not read as a script
      {{"--sandbox", "s/a/b/e", "f"}, false},
      {{"s/a/b/ w file.txt e", "f"}, false},  // the w flag's file name runs to the end of the line
      {{"v 4.2", "f"}, true},                 // not read by this scanner: assumed to run
      {{"--expr=1e ls", "f"}, true},          // abbreviated --expression
      {{"1e ls", "f", "--", "--sandbox"}, true},
      {{"--quiet", "-e", "p", "f"}, false},
  };
  for (const auto& [args, runs] : rows) {
    std::string shown;
    for (const auto& a : args) shown += "[" + a + "] ";
    INFO("sed " << shown);
    CHECK(sedMayRunCommands(args) == runs);
  }
}
