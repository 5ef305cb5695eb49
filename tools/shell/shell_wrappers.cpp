// Resolving wrapper commands to the commands they run. Pure; any thread.
#include "tools/shell/shell_wrappers.h"

#include <algorithm>
#include <cctype>

namespace lathe::tools::shell {

namespace {

constexpr int kMaxHops = 16;

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool oneOf(std::string_view text, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), text) != names.end();
}

// How a wrapper spells its options, getopt style.
struct OptionSpec {
  std::string_view shortWithArgument;  // "u" for -u USER or -uUSER
  std::string_view longWithArgument;   // " --user --group ": long options taking the next word
};

struct Option {
  std::string name;  // "-u", "--user"
  std::string argument;
  bool literal = true;  // the argument is literal text
};

struct OptionScan {
  std::vector<Option> options;
  size_t operand = 0;  // the first word that is not an option
  bool has(std::initializer_list<std::string_view> names) const {
    return std::any_of(options.begin(), options.end(), [&](const Option& o) { return oneOf(o.name, names); });
  }
};

// GNU getopt accepts any unique prefix of a long option ("--s" for
// "--split-string"): the known option a prefix stands for, when only one
// of `known` (" --a --b ") starts with it; else the name as written.
std::string expandAbbreviation(const std::string& name, std::string_view known) {
  if (name.size() < 3) return name;
  std::string found;
  for (size_t at = known.find(" " + name); at != std::string_view::npos; at = known.find(" " + name, at + 1)) {
    size_t end = known.find(' ', at + 1);
    std::string candidate(known.substr(at + 1, end - at - 1));
    if (candidate == name) return name;
    if (!found.empty() && found != candidate) return name;  // ambiguous: the program refuses it
    found = candidate;
  }
  return found.empty() ? name : found;
}

// Reads the option word at `i` (and its argument); returns the next index.
size_t readOption(const Words& words, size_t i, const OptionSpec& spec, std::vector<Option>& out) {
  const std::string& text = words[i].text;
  if (startsWith(text, "--")) {
    size_t eq = text.find('=');
    Option option{text.substr(0, eq), eq == std::string::npos ? std::string() : text.substr(eq + 1), words[i].literal};
    option.name = expandAbbreviation(option.name, spec.longWithArgument);
    bool separate =
        eq == std::string::npos && spec.longWithArgument.find(" " + option.name + " ") != std::string_view::npos;
    if (separate && i + 1 < words.size()) {
      option.argument = words[++i].text;
      option.literal = words[i].literal;
    }
    out.push_back(std::move(option));
    return i + 1;
  }
  for (size_t j = 1; j < text.size(); ++j) {
    Option option{std::string("-") + text[j], {}, words[i].literal};
    if (spec.shortWithArgument.find(text[j]) != std::string_view::npos) {
      if (j + 1 < text.size()) {
        option.argument = text.substr(j + 1);
      } else if (i + 1 < words.size()) {
        option.argument = words[++i].text;
        option.literal = words[i].literal;
      }
      out.push_back(std::move(option));
      break;
    }
    out.push_back(std::move(option));
  }
  return i + 1;
}

// Options up to the first operand (or "--"). A word that is not literal ends
// the options: what it expands to is unknown, so it is judged as the command.
OptionScan scanOptions(const Words& words, size_t start, const OptionSpec& spec) {
  OptionScan scan;
  size_t i = start;
  while (i < words.size() && words[i].literal && isOption(words[i])) {
    if (words[i].text == "--") {
      ++i;
      break;
    }
    i = readOption(words, i, spec, scan.options);
  }
  scan.operand = i;
  return scan;
}

bool isIdentifier(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// NAME=VALUE as env and sudo take it.
bool splitAssignment(const Word& word, std::string_view& name, Word& value) {
  size_t eq = word.text.find('=');
  if (eq == std::string::npos || !isIdentifier(std::string_view(word.text).substr(0, eq))) return false;
  name = std::string_view(word.text).substr(0, eq);
  value = Word{word.text.substr(eq + 1), word.literal};
  return true;
}

bool posixShell(std::string_view name) {
  return oneOf(name, {"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "rbash", "posh", "yash"});
}

bool otherShell(std::string_view name) {
  return oneOf(name, {"fish", "csh", "tcsh", "pwsh", "powershell", "nu", "xonsh", "elvish", "rc", "es"});
}

// A variable name with a subscript that bash evaluates as arithmetic
// ("a[$(cmd)]", "a[i]"); "a[1]" and "a[@]" are harmless.
bool subscriptCanRun(std::string_view name) {
  size_t open = name.find('[');
  if (open == std::string_view::npos) return false;
  size_t close = name.find(']', open);
  std::string_view inside = name.substr(open + 1, close == std::string_view::npos ? close : close - open - 1);
  if (inside == "@" || inside == "*") return false;
  return arithmeticNamesVariables(inside);
}

// A word naming a variable: risky when computed or when its subscript is.
bool riskyName(const Word& word) { return !word.literal || subscriptCanRun(word.text); }

class Resolver {
 public:
  explicit Resolver(ResolveContext& context) : context_(context) {}

  // `extra`: the command gets more arguments at run time (xargs).
  void resolve(const Words& words, const ShellInput& input, bool extra, int hops) {
    if (words.empty()) return;
    if (hops > kMaxHops) {
      reason("wrappers are nested too deeply");
      push(words, extra);
      return;
    }
    const Word& name = words[0];
    if (!name.literal) {
      reason("the command name is computed: " + name.text);
      push(words, extra);
      return;
    }
    // Only programs we trust to be the usual ones are looked through:
    // "./env ls" runs ./env, whatever it is.
    std::string_view base = trustedName(name.text);
    if (base == "sudo" || base == "doas") return elevate(words, base, input, extra, hops);
    if (base == "su") return switchUser(words, input, extra);
    if (posixShell(base)) return shell(words, input, extra);
    if (otherShell(base)) {
      reason("runs a " + std::string(base) + " shell, whose scripts are not analyzed");
      return push(words, extra);
    }
    if (base == "env") return env(words, input, extra, hops);
    if (base == "xargs") return xargs(words, hops);
    if (base == "find") return find(words, extra, hops);
    if (base == "eval") return eval(words, extra);
    if (base == "watch") return watch(words, extra, hops);
    if (base == "trap") return trap(words, extra);
    if (base == "source" || base == ".") {
      reason("runs the commands in a file" + (words.size() > 1 ? ": " + words[1].text : std::string()));
      return push(words, extra);
    }
    if (base == "command") {
      OptionScan scan = scanOptions(words, 1, {});
      if (scan.has({"-v", "-V"})) return push(words, extra);  // only looks the name up
      return runTail(words, scan.operand, input, extra, hops);
    }
    if (base == "time") {
      OptionScan scan = scanOptions(words, 1, {"fo", " --format --output "});
      for (const auto& option : scan.options) {
        if (option.name == "-o" || option.name == "--output") written(option.argument);
      }
      return runTail(words, scan.operand, input, extra, hops);
    }
    if (base == "nohup" || base == "setsid" || base == "builtin") {
      return runTail(words, scanOptions(words, 1, {}).operand, input, extra, hops);
    }
    if (base == "busybox" || base == "coproc") return runTail(words, 1, input, extra, hops);
    if (base == "exec") return runTail(words, scanOptions(words, 1, {"a", ""}).operand, input, extra, hops);
    if (base == "nice")
      return runTail(words, scanOptions(words, 1, {"n", " --adjustment "}).operand, input, extra, hops);
    if (base == "stdbuf") {
      return runTail(words, scanOptions(words, 1, {"ioe", " --input --output --error "}).operand, input, extra, hops);
    }
    if (base == "ionice") {
      OptionScan scan = scanOptions(words, 1, {"cnpPu", " --class --classdata --pid --pgid --uid "});
      if (scan.has({"-p", "-P", "-u", "--pid", "--pgid", "--uid"})) return push(words, extra);
      return runTail(words, scan.operand, input, extra, hops);
    }
    if (base == "timeout") {
      OptionScan scan = scanOptions(words, 1, {"sk", " --signal --kill-after "});
      if (scan.operand >= words.size()) return push(words, extra);
      return runTail(words, scan.operand + 1, input, extra, hops);  // past the duration
    }
    builtinHazards(words, base);
    push(words, extra);
  }

 private:
  void push(const Words& words, bool extra) { context_.out.commands.push_back(toCommandWords(words, extra)); }

  void reason(std::string text) {
    auto& reasons = context_.out.reasons;
    if (std::find(reasons.begin(), reasons.end(), text) == reasons.end()) reasons.push_back(std::move(text));
  }

  void notReadOnly(std::string text) {
    auto& why = context_.out.notReadOnly;
    if (std::find(why.begin(), why.end(), text) == why.end()) why.push_back(std::move(text));
  }

  void written(const std::string& path) {
    auto& files = context_.out.writtenFiles;
    if (!path.empty() && std::find(files.begin(), files.end(), path) == files.end()) files.push_back(path);
  }

  // The wrapped command from `from` on, or the wrapper itself when there is none.
  void runTail(const Words& words, size_t from, const ShellInput& input, bool extra, int hops) {
    if (from >= words.size()) return push(words, extra);
    resolve(slice(words, from), input, extra, hops + 1);
  }

  void assignments(const Words& words, size_t& i) {
    std::string_view name;
    Word value;
    while (i < words.size() && splitAssignment(words[i], name, value)) {
      if (auto hazard = assignmentHazard(name, value)) reason(*hazard);
      if (!harmlessAssignment(name, value)) notReadOnly("assigns " + std::string(name));
      ++i;
    }
  }

  // sudo and doas: listed themselves, then the command they run as another user.
  void elevate(const Words& words, std::string_view base, const ShellInput& input, bool extra, int hops) {
    push(words, extra);
    bool sudo = base == "sudo";
    OptionScan scan = sudo ? scanOptions(words, 1,
                                         {"CDghpRrTtUu",
                                          " --user --group --prompt --chdir --chroot --close-from --role --type "
                                          "--command-timeout --other-user --host "})
                           : scanOptions(words, 1, {"uC", ""});
    bool runsNothing = sudo ? scan.has({"-l", "--list", "-e", "--edit", "-v", "--validate", "-V", "--version", "--help",
                                        "-K", "--remove-timestamp"})
                            : scan.has({"-C"});
    if (runsNothing) return;  // lists, edits or checks
    size_t i = scan.operand;
    if (sudo) assignments(words, i);
    if (i < words.size()) return resolve(slice(words, i), input, extra, hops + 1);
    if (scan.has({"-s", "-i", "--shell", "--login"})) stdinScript(input, "a shell started by " + std::string(base));
  }

  // su [options] [-] [user [args]]: -c COMMAND runs through the user's shell.
  void switchUser(const Words& words, const ShellInput& input, bool extra) {
    push(words, extra);
    std::vector<Option> options;
    for (size_t i = 1; i < words.size();) {
      if (words[i].literal && isOption(words[i]) && words[i].text != "--") {
        size_t before = options.size();
        i = readOption(words, i, {"cgGsw", " --command --session-command --group --supp-group --shell "}, options);
        for (size_t k = before; k < options.size(); ++k) {
          const auto& o = options[k];
          if (o.name != "-c" && o.name != "--command" && o.name != "--session-command") continue;
          if (!o.literal) return reason("su runs a command that is not literal text");
          return context_.analyzeScript(o.argument);
        }
      } else {
        ++i;
      }
    }
    stdinScript(input, "a shell started by su");
  }

  // A shell reading its script from standard input.
  void stdinScript(const ShellInput& input, const std::string& who) {
    switch (input.kind) {
      case ShellInput::Kind::heredoc:
      case ShellInput::Kind::herestring:
        // With expansions the script is not known, but what it names is shown.
        if (!input.literal) reason(who + " reads a script with expansions");
        context_.analyzeScript(input.text);
        return;
      case ShellInput::Kind::file: reason(who + " runs a script file"); return;
      case ShellInput::Kind::inherited: reason(who + " reads commands from its input"); return;
    }
  }

  // bash/sh/zsh ... : -c SCRIPT, a script file, or commands from stdin.
  void shell(const Words& words, const ShellInput& input, bool extra) {
    bool command = false;
    size_t i = 1;
    for (; i < words.size(); ++i) {
      const Word& w = words[i];
      if (!w.literal) break;
      if (w.text == "--" || w.text == "-") {
        ++i;
        break;
      }
      if (w.text.size() < 2 || (w.text[0] != '-' && w.text[0] != '+')) break;
      if (startsWith(w.text, "--")) {
        if (w.text == "--rcfile" || w.text == "--init-file") ++i;
        // Start-up files (an rc file, a login profile, an interactive shell's
        // ~/.bashrc) run code the line does not show.
        if (w.text != "--norc" && w.text != "--noprofile" && w.text != "--posix") {
          notReadOnly(std::string(trustedName(words[0].text)) + " " + w.text + " reads start-up files");
        }
        continue;
      }
      if (w.text[0] == '-' && w.text.find_first_of("il", 1) != std::string::npos) {
        notReadOnly(std::string(trustedName(words[0].text)) + " " + w.text + " reads start-up files");
      }
      if (w.text.find('c', 1) != std::string::npos) command = true;
      if (w.text.find_first_of("oO", 1) != std::string::npos) ++i;  // -o option, -O shopt
    }
    std::string name(trustedName(words[0].text));
    if (command) {
      if (i >= words.size()) return push(words, extra);
      if (!words[i].literal) {
        reason(name + " -c runs a script that is not literal text");
        return push(words, extra);
      }
      context_.analyzeScript(words[i].text);
      return;
    }
    if (i < words.size()) {
      reason(name + " runs a script file: " + words[i].text);
      return push(words, extra);
    }
    bool fed = input.kind == ShellInput::Kind::heredoc || input.kind == ShellInput::Kind::herestring;
    if (fed && input.literal) return context_.analyzeScript(input.text);  // replaced by its script
    push(words, extra);
    stdinScript(input, name);
  }

  void env(const Words& words, const ShellInput& input, bool extra, int hops) {
    OptionScan scan = scanOptions(words, 1, {"uCSP", " --unset --chdir --split-string "});
    if (scan.has({"-S", "--split-string"})) {
      reason("env -S splits a string into a command line");
      return push(words, extra);
    }
    if (scan.has({"-P"})) reason("env -P changes where commands are found");
    size_t i = scan.operand;
    if (i < words.size() && words[i].literal && words[i].text == "-") ++i;  // like -i
    assignments(words, i);
    runTail(words, i, input, extra, hops);
  }

  // xargs [options] [command [args]]: the command gets arguments from input.
  void xargs(const Words& words, int hops) {
    OptionScan scan = scanOptions(
        words, 1, {"aEILnPsd", " --arg-file --delimiter --max-args --max-procs --max-chars --process-slot-var "});
    std::string replace;
    for (const auto& option : scan.options) {
      if (option.name == "-I") replace = option.argument;
      if (option.name == "--replace") replace = option.argument.empty() ? "{}" : option.argument;
    }
    for (size_t i = 1; i < scan.operand; ++i) {
      if (startsWith(words[i].text, "-i")) replace = words[i].text.size() > 2 ? words[i].text.substr(2) : "{}";
    }
    Words inner = slice(words, scan.operand);
    if (inner.empty()) inner.push_back(Word{"echo", true});
    if (!replace.empty()) {
      for (auto& word : inner) {
        if (word.text.find(replace) != std::string::npos) word.literal = false;
      }
      if (!inner[0].literal) {
        reason("xargs builds the command name from its input");
        return push(inner, true);
      }
    }
    resolve(inner, ShellInput{}, true, hops + 1);
  }

  // find is listed itself; each -exec/-execdir/-ok/-okdir command too.
  void find(const Words& words, bool extra, int hops) {
    push(words, extra);
    for (size_t i = 1; i < words.size(); ++i) {
      if (!words[i].literal) continue;
      const std::string& primary = words[i].text;
      if (oneOf(primary, {"-fprint", "-fprint0", "-fprintf", "-fls"}) && i + 1 < words.size()) {
        written(words[i + 1].text);
        continue;
      }
      if (!oneOf(primary, {"-exec", "-execdir", "-ok", "-okdir"})) continue;
      size_t end = i + 1;
      while (end < words.size() && !(words[end].literal && (words[end].text == ";" || words[end].text == "+"))) ++end;
      Words inner(words.begin() + static_cast<std::ptrdiff_t>(i + 1), words.begin() + static_cast<std::ptrdiff_t>(end));
      for (auto& word : inner) {
        if (word.text.find("{}") != std::string::npos) word.literal = false;
      }
      if (!inner.empty()) {
        if (inner[0].text.find("{}") != std::string::npos) {
          reason("find " + primary + " runs a name built from file names");
          push(inner, false);
        } else {
          resolve(inner, ShellInput{}, false, hops + 1);
        }
      }
      i = end;
    }
  }

  void eval(const Words& words, bool extra) {
    if (words.size() < 2) return push(words, extra);
    std::string script;
    for (size_t i = 1; i < words.size(); ++i) {
      if (!words[i].literal) {
        reason("eval of text that is not literal");
        return push(words, extra);
      }
      if (i > 1) script += ' ';
      script += words[i].text;
    }
    context_.analyzeScript(script);
  }

  // watch [options] command: runs it through sh -c, or directly with -x.
  void watch(const Words& words, bool extra, int hops) {
    OptionScan scan = scanOptions(words, 1, {"n", " --interval "});
    if (scan.operand >= words.size()) return push(words, extra);
    if (scan.has({"-x", "--exec"})) return runTail(words, scan.operand, ShellInput{}, extra, hops);
    std::string script;
    for (size_t i = scan.operand; i < words.size(); ++i) {
      if (!words[i].literal) {
        reason("watch runs text that is not literal");
        return push(words, extra);
      }
      if (i > scan.operand) script += ' ';
      script += words[i].text;
    }
    context_.analyzeScript(script);
  }

  // trap ACTION SIGNAL...: the action runs later, in this shell.
  void trap(const Words& words, bool extra) {
    push(words, extra);
    size_t i = 1;
    if (i < words.size() && words[i].literal && words[i].text == "--") ++i;
    if (i + 1 >= words.size() || (words[i].literal && (isOption(words[i]) || words[i].text == "-"))) return;
    if (!words[i].literal) return reason("trap runs text that is not literal");
    if (!words[i].text.empty()) context_.analyzeScript(words[i].text);
  }

  // Builtins that change what later names run, or evaluate subscripts.
  void builtinHazards(const Words& words, std::string_view base) {
    auto anyWord = [&](auto predicate) { return std::any_of(words.begin() + 1, words.end(), predicate); };
    if (base == "hash" &&
        anyWord([](const Word& w) { return startsWith(w.text, "-") && w.text.find('p') != std::string::npos; })) {
      reason("hash -p changes what a name runs");
    }
    if (base == "alias" && anyWord([](const Word& w) { return w.text.find('=') != std::string::npos; })) {
      reason("defines an alias");
    }
    if (base == "enable" &&
        anyWord([](const Word& w) { return startsWith(w.text, "-") && w.text.find('f') != std::string::npos; })) {
      reason("loads a builtin from a file");
    }
    if (base == "let" && anyWord([](const Word& w) { return !w.literal || arithmeticNamesVariables(w.text); })) {
      reason("arithmetic on a variable can run commands hidden in its value");
    }
    const char* subscriptReason = "a subscript can run commands hidden in a variable";
    if (oneOf(base, {"test", "[", "printf"})) {
      // test -v NAME, printf -v NAME: the name is evaluated.
      for (size_t i = 1; i + 1 < words.size(); ++i) {
        if (words[i].text == "-v" && riskyName(words[i + 1])) reason(subscriptReason);
      }
    }
    if (oneOf(base, {"read", "unset", "mapfile", "readarray", "declare", "typeset", "local", "export", "readonly"})) {
      for (size_t i = 1; i < words.size(); ++i) {
        if (isOption(words[i])) continue;
        std::string_view name;
        Word value;
        if (splitAssignment(words[i], name, value)) {
          if (auto hazard = assignmentHazard(name, value)) reason(*hazard);
          if (!harmlessAssignment(name, value)) notReadOnly("assigns " + std::string(name));
        } else if (riskyName(words[i]) || (words[i].text.find('=') != std::string::npos &&
                                           subscriptCanRun(words[i].text.substr(0, words[i].text.find('='))))) {
          reason(subscriptReason);
        }
      }
    }
  }

  ResolveContext& context_;
};

}  // namespace

void resolveCommand(const Words& words, const ShellInput& input, ResolveContext& context) {
  Resolver(context).resolve(words, input, false, 0);
}

std::optional<std::string> assignmentHazard(std::string_view name, const Word& value) {
  static constexpr std::string_view kCodeVariables[] = {"PATH",
                                                        "BASH_ENV",
                                                        "ENV",
                                                        "PS4",
                                                        "PROMPT_COMMAND",
                                                        "SHELLOPTS",
                                                        "BASHOPTS",
                                                        "BASH_LOADABLES_PATH",
                                                        "PYTHONPATH",
                                                        "PYTHONSTARTUP",
                                                        "PYTHONHOME",
                                                        "NODE_OPTIONS",
                                                        "NODE_PATH",
                                                        "PERL5OPT",
                                                        "PERL5LIB",
                                                        "PERLLIB",
                                                        "RUBYOPT",
                                                        "RUBYLIB",
                                                        "GIT_EXEC_PATH",
                                                        "GIT_SSH",
                                                        "GIT_SSH_COMMAND",
                                                        "GIT_EXTERNAL_DIFF",
                                                        "GIT_ASKPASS",
                                                        "SSH_ASKPASS",
                                                        "GIT_PROXY_COMMAND",
                                                        "GIT_CONFIG",
                                                        "LESSOPEN",
                                                        "LESSCLOSE"};
  static constexpr std::string_view kCodePrefixes[] = {"LD_", "DYLD_", "BASH_FUNC_", "GIT_CONFIG_"};
  static constexpr std::string_view kProgramVariables[] = {
      "PAGER",       "GIT_PAGER", "MANPAGER",     "SYSTEMD_PAGER",      "EDITOR", "VISUAL", "GIT_EDITOR",
      "SUDO_EDITOR", "FCEDIT",    "SUDO_ASKPASS", "GIT_SEQUENCE_EDITOR"};
  auto hazard = [&] { return "sets " + std::string(name) + ", which changes what runs"; };
  for (auto v : kCodeVariables) {
    if (name == v) return hazard();
  }
  for (auto p : kCodePrefixes) {
    if (startsWith(name, p)) return hazard();
  }
  for (auto v : kProgramVariables) {
    if (name != v) continue;
    // A pager or editor that is a plain viewer is harmless.
    if (value.literal && oneOf(value.text, {"", "cat", "less", "more"})) return std::nullopt;
    return hazard();
  }
  return std::nullopt;
}

bool harmlessAssignment(std::string_view name, const Word& value) {
  // Locale, time zone, terminal size and colour: they change how output
  // looks, never what runs or which files are read or written.
  static constexpr std::string_view kHarmless[] = {
      "LANG",   "LANGUAGE",  "LC_ALL",          "TZ",          "COLUMNS",     "LINES",       "NO_COLOR",
      "CLICOLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "GREP_COLOR", "GREP_COLORS", "TIME_STYLE", "QUOTING_STYLE",
      "TERM"};
  if (startsWith(name, "LC_")) return true;
  for (auto h : kHarmless) {
    if (name == h) return true;
  }
  // A plain viewer as pager is what Lathe sets itself.
  return oneOf(name, {"PAGER", "GIT_PAGER"}) && value.literal && value.text == "cat";
}

bool arithmeticNamesVariables(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '$' || c == '`' || c == '[') return true;
    if (std::isdigit(c)) {
      // 42, 0x1f, 16#ff, 2#101: a number, letters and all.
      while (i < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' || text[i] == '#' || text[i] == '@'))
        ++i;
      continue;
    }
    if (std::isalpha(c) || c == '_') return true;
    ++i;
  }
  return false;
}

}  // namespace lathe::tools::shell
