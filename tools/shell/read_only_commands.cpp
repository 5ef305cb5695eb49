// The read-only command table. Pure; any thread.
#include "tools/shell/read_only_commands.h"

#include <algorithm>
#include <string_view>

#include "tools/shell/sed_script.h"
#include "tools/shell/shell_words.h"

namespace lathe::tools::shell {

namespace {

using Args = std::vector<std::string>;

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool oneOf(std::string_view text, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), text) != names.end();
}

// GNU programs (getopt_long, and git's parse-options) accept any unique
// prefix of a long option: "--o=f" is "--output=f". True when `arg` could
// be `full` written that way (at least "--" and one letter).
bool abbreviates(std::string_view arg, std::string_view full) {
  std::string_view name = arg.substr(0, arg.find('='));
  return name.size() >= 3 && startsWith(name, "--") && startsWith(full, name);
}

bool abbreviatesAny(std::string_view arg, std::initializer_list<std::string_view> names) {
  return std::any_of(names.begin(), names.end(), [&](std::string_view n) { return abbreviates(arg, n); });
}

// "-abc": a cluster of short options (not "-" nor "--long").
bool isShortCluster(std::string_view arg) { return arg.size() > 1 && arg[0] == '-' && arg[1] != '-'; }

// No option or argument of these writes a file or runs a program, so their
// arguments may even be computed ($x, *.c, xargs input).
bool anyArguments(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "ls",       "cat",    "head",     "tail",    "wc",       "grep",     "egrep",     "fgrep",     "pwd",
      "echo",     "printf", "which",    "type",    "stat",     "du",       "df",        "cut",       "tr",
      "diff",     "cmp",    "basename", "dirname", "realpath", "readlink", "uname",     "whoami",    "id",
      "true",     "false",  ":",        "test",    "[",        "[[",       "((",        "printenv",  "cd",
      "nl",       "tac",    "rev",      "fold",    "paste",    "comm",     "join",      "column",    "expand",
      "unexpand", "seq",    "od",       "hexdump", "md5sum",   "sha1sum",  "sha256sum", "sha512sum", "cksum",
      "nproc",    "arch",   "sleep",    "groups",  "locale",   "tty",      "jq",        "read"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

// find without -delete or -fprint*/-fls; -exec and -ok commands are listed
// and judged on their own.
bool findReadOnly(const Args& args) {
  return std::none_of(args.begin(), args.end(), [](const std::string& a) {
    return oneOf(a, {"-delete", "-fprint", "-fprint0", "-fprintf", "-fls"});
  });
}

// sort without -o/--output or --compress-program (runs a program).
bool sortReadOnly(const Args& args) {
  return std::none_of(args.begin(), args.end(), [](const std::string& a) {
    return abbreviatesAny(a, {"--output", "--compress-program"}) || startsWith(a, "--output") ||
           startsWith(a, "--compress-program") || (isShortCluster(a) && a.find('o') != std::string::npos);
  });
}

// uniq [options] [input [output]]: a second operand is written.
bool uniqReadOnly(const Args& args) {
  size_t operands = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (oneOf(a, {"-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars"})) {
      ++i;
    } else if (a == "-" || a.empty() || a[0] != '-') {
      ++operands;
    }
  }
  return operands <= 1;
}

// tree -o FILE writes its listing; -R with -H writes 00Tree.html files.
bool treeReadOnly(const Args& args) {
  return std::none_of(args.begin(), args.end(), [](const std::string& a) {
    return abbreviates(a, "--output") || startsWith(a, "--output") ||
           (isShortCluster(a) && a.find_first_of("oR") != std::string::npos);
  });
}

// file -C compiles a magic file.
bool fileReadOnly(const Args& args) {
  return std::none_of(args.begin(), args.end(), [](const std::string& a) {
    return abbreviates(a, "--compile") || (isShortCluster(a) && a.find('C') != std::string::npos);
  });
}

// date prints; -s/--set or an MMDDhhmm operand sets the clock.
bool dateReadOnly(const Args& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (startsWith(a, "--set") || abbreviates(a, "--set")) return false;
    if (oneOf(a, {"--date", "--file", "--reference"})) {
      ++i;
    } else if (startsWith(a, "--")) {
      continue;
    } else if (isShortCluster(a)) {
      for (size_t j = 1; j < a.size(); ++j) {
        if (a[j] == 's') return false;
        if (a[j] == 'I') break;  // -I[FMT]
        if (a[j] == 'd' || a[j] == 'f' || a[j] == 'r') {
          if (j + 1 == a.size()) ++i;
          break;
        }
      }
    } else if (a.empty() || a[0] != '+') {
      return false;
    }
  }
  return true;
}

// rg --pre runs a preprocessor; --hostname-bin runs a program.
bool rgReadOnly(const Args& args) {
  return std::none_of(args.begin(), args.end(),
                      [](const std::string& a) {
                        return startsWith(a, "--pre") || startsWith(a, "--hostname-bin") ||
                               abbreviatesAny(a, {"--pre", "--hostname-bin"});
                      });
}

bool gitBranchListing(const Args& rest) {
  bool list = false;
  for (const auto& a : rest) {
    if (a == "-l" || a == "--list") list = true;
  }
  for (const auto& a : rest) {
    if (a.empty() || a[0] != '-') {
      if (!list) return false;  // a new branch name
      continue;
    }
    bool known = oneOf(a, {"-a", "--all", "-r", "--remotes", "-l", "--list", "-v", "-vv", "--verbose", "--show-current",
                           "--no-color", "--no-column", "-i", "--ignore-case", "--omit-empty", "--no-abbrev"}) ||
                 startsWith(a, "--color") || startsWith(a, "--column") || startsWith(a, "--sort=") ||
                 startsWith(a, "--contains") || startsWith(a, "--no-contains") || startsWith(a, "--merged") ||
                 startsWith(a, "--no-merged") || startsWith(a, "--points-at=") || startsWith(a, "--format=") ||
                 startsWith(a, "--abbrev=");
    if (!known) return false;
  }
  return true;
}

bool gitTagListing(const Args& rest) {
  if (rest.empty()) return true;
  bool list = false;
  for (const auto& a : rest) {
    if (a == "-l" || a == "--list" || startsWith(a, "-n")) list = true;
  }
  if (!list) return false;
  return std::all_of(rest.begin(), rest.end(), [](const std::string& a) {
    if (a.empty() || a[0] != '-') return true;  // a pattern
    return oneOf(a, {"-l", "--list", "-i", "--ignore-case", "--no-column", "--omit-empty"}) || startsWith(a, "-n") ||
           startsWith(a, "--sort=") || startsWith(a, "--contains") || startsWith(a, "--no-contains") ||
           startsWith(a, "--merged") || startsWith(a, "--no-merged") || startsWith(a, "--points-at") ||
           startsWith(a, "--format=") || startsWith(a, "--column") || startsWith(a, "--color");
  });
}

bool gitConfigReading(const Args& rest) {
  if (!rest.empty() && oneOf(rest[0], {"get", "list"})) return true;
  bool reads = false;
  for (const auto& a : rest) {
    if (oneOf(a, {"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l"})) reads = true;
    if (oneOf(a, {"--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section", "-e",
                  "--edit"})) {
      return false;
    }
  }
  return reads;
}

// git [-C dir] [--no-pager ...] SUBCOMMAND: reading subcommands only, and
// no -c / --config-env / --exec-path (config can name programs to run).
bool gitReadOnly(const Args& args) {
  size_t i = 0;
  while (i < args.size() && startsWith(args[i], "-")) {
    const std::string& o = args[i];
    if (o == "-C" || o == "--git-dir" || o == "--work-tree" || o == "--namespace") {
      i += 2;
    } else if (oneOf(o,
                     {"--no-pager", "-P", "--paginate", "-p", "--bare", "--no-replace-objects", "--literal-pathspecs",
                      "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks"}) ||
               startsWith(o, "--git-dir=") || startsWith(o, "--work-tree=") || startsWith(o, "--namespace=")) {
      ++i;
    } else {
      return false;
    }
  }
  if (i >= args.size()) return false;
  const std::string& sub = args[i];
  Args rest(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
  for (const auto& a : rest) {
    // --output writes a file; -O / --open-files-in-pager (grep) runs a program.
    if (startsWith(a, "--output") || startsWith(a, "--open-files-in-pager") || startsWith(a, "-O") ||
        abbreviatesAny(a, {"--output", "--output-directory", "--open-files-in-pager", "--ext-diff", "--textconv"})) {
      return false;
    }
  }
  if (oneOf(sub, {"status", "diff", "log", "show", "rev-parse", "ls-files", "ls-tree", "blame", "grep", "shortlog",
                  "describe", "rev-list", "cat-file", "show-ref", "merge-base", "for-each-ref", "check-ignore"})) {
    return true;
  }
  if (sub == "branch") return gitBranchListing(rest);
  if (sub == "tag") return gitTagListing(rest);
  if (sub == "remote") {
    if (!rest.empty() && rest[0] == "get-url") return true;
    return std::all_of(rest.begin(), rest.end(), [](const std::string& a) { return a == "-v" || a == "--verbose"; });
  }
  if (sub == "stash") return !rest.empty() && (rest[0] == "list" || rest[0] == "show");
  if (sub == "worktree") return !rest.empty() && rest[0] == "list";
  if (sub == "config") return gitConfigReading(rest);
  return false;
}

}  // namespace

bool isReadOnlyCommand(const CommandWords& command) {
  if (command.words.empty()) return false;
  if (!command.literal && command.literalPrefix == 0) return false;  // a computed name
  std::string_view name = trustedName(command.words[0]);
  if (name.empty()) return false;
  if (anyArguments(name)) return true;
  if (!command.literal) return false;
  Args args(command.words.begin() + 1, command.words.end());
  if (name == "find") return findReadOnly(args);
  if (name == "sort") return sortReadOnly(args);
  if (name == "uniq") return uniqReadOnly(args);
  if (name == "tree") return treeReadOnly(args);
  if (name == "file") return fileReadOnly(args);
  if (name == "date") return dateReadOnly(args);
  if (name == "rg") return rgReadOnly(args);
  if (name == "sed") return sedOnlyPrints(args);
  if (name == "git") return gitReadOnly(args);
  // After wrappers are resolved, env / command are only left when they run
  // nothing: env prints the environment, command -v looks a name up.
  if (name == "env") return true;
  if (name == "command") return !args.empty() && (args[0] == "-v" || args[0] == "-V");
  return false;
}

}  // namespace lathe::tools::shell
