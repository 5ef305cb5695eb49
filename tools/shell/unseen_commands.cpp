// Commands that can run programs their words do not name.
#include "tools/shell/unseen_commands.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <vector>

#include "tools/shell/sed_script.h"

namespace lathe::tools::shell {
namespace {

using Words = std::vector<std::string>;

// An interpreter family (matched by prefix: python3.11, perl5.36, nodejs)
// and how its command line takes code: short-option letters (alone or in a
// cluster: -c, -Ic, -ne) and long options (--eval, --eval=...).
struct Interpreter {
  std::string_view prefix;
  std::string_view letters;
  std::array<std::string_view, 2> longOptions;
};

constexpr std::array<Interpreter, 9> kInterpreters{{
    {"python", "c", {}},
    {"perl", "eE", {}},
    {"ruby", "e", {}},
    {"node", "ep", {"--eval", "--print"}},
    {"bun", "e", {"--eval", "--print"}},
    {"php", "r", {}},
    {"lua", "e", {}},
    {"rscript", "e", {}},
    {"osascript", "e", {}},
}};

constexpr std::array<std::string_view, 4> kAwks{"awk", "gawk", "mawk", "nawk"};

std::string lowerBase(const std::string& word) {
  std::string name = word.substr(word.find_last_of('/') + 1);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

bool takesInlineCode(const Interpreter& interpreter, const Words& words) {
  for (size_t i = 1; i < words.size(); ++i) {
    std::string_view word = words[i];
    if (word == "--") return false;
    for (auto option : interpreter.longOptions) {
      if (!option.empty() && (word == option || word.starts_with(std::string(option) + "="))) return true;
    }
    if (word.size() >= 2 && word[0] == '-' && word[1] != '-' &&
        word.substr(1).find_first_of(interpreter.letters) != std::string_view::npos) {
      return true;
    }
    if (!word.starts_with("-")) return false;  // the script or its arguments: options end here
  }
  return false;
}

// An awk program the line does not show (-f FILE, -fFILE, --file) or one
// that runs commands (system(), a pipe to or from one).
bool awkMayRun(const Words& words) {
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word.starts_with("-f") || word.starts_with("--file") || word.starts_with("--load") || word == "-l") return true;
    if (word == "-v" || word == "-F") {
      ++i;
      continue;
    }
    const bool source = word == "-e" || word == "--source";
    if (source || word.starts_with("--source=")) {
      const std::string program = source ? (i + 1 < words.size() ? words[++i] : "") : word.substr(9);
      if (program.find("system") != std::string::npos || program.find('|') != std::string::npos) return true;
      continue;
    }
    if (word.starts_with("-")) continue;
    return word.find("system") != std::string::npos || word.find('|') != std::string::npos;
  }
  return false;
}

bool anyWordStarts(const Words& words, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(words.begin() + 1, words.end(), [&](const std::string& word) {
    return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return word.starts_with(p); });
  });
}

}  // namespace

std::optional<std::string> runsUnseenCommands(const CommandWords& command) {
  if (command.words.empty()) return std::nullopt;
  const Words& words = command.words;
  const std::string name = lowerBase(words.front());
  if (name == "sed") {
    if (!command.literal || sedMayRunCommands(Words(words.begin() + 1, words.end()))) {
      return "sed's e command or flag, or a script it reads, runs shell commands";
    }
    return std::nullopt;
  }
  if (std::find(kAwks.begin(), kAwks.end(), name) != kAwks.end()) {
    if (!command.literal || awkMayRun(words)) return name + " can run commands (system(), a pipe or a program file)";
    return std::nullopt;
  }
  for (const auto& interpreter : kInterpreters) {
    if (name.starts_with(interpreter.prefix) && takesInlineCode(interpreter, words)) {
      return name + " runs code given on the command line";
    }
  }
  // Options that hand a command line to another program.
  if (name == "git" && anyWordStarts(words, {"-c", "--config-env", "--exec-path"})) {
    return "git -c can define an alias or a hook that runs commands";
  }
  if (name == "tar" && anyWordStarts(words, {"--checkpoint-action", "--to-command", "--use-compress-program", "-I",
                                             "--info-script", "--new-volume-script", "-F"})) {
    return "tar runs a command given in its options";
  }
  if ((name == "sqlite3" || name == "sqlite") && anyWordStarts(words, {".shell", ".system", ".once", ".output |"})) {
    return "sqlite3 runs shell commands given as dot-commands";
  }
  return std::nullopt;
}

}  // namespace lathe::tools::shell
