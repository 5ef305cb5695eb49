// Commands that can run programs their words do not name.
#include "tools/shell/unseen_commands.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "tools/shell/sed_script.h"

namespace lathe::tools::shell {
namespace {

constexpr std::array kAwks{"awk", "gawk", "mawk", "nawk", "busybox-awk"};
// Interpreters and the options that take code from the command line.
struct Inline {
  std::string_view name;
  std::array<std::string_view, 3> options;
};
constexpr std::array<Inline, 8> kInterpreters{{{"python", {"-c"}},
                                               {"python3", {"-c"}},
                                               {"perl", {"-e", "-E"}},
                                               {"ruby", {"-e"}},
                                               {"node", {"-e", "--eval", "-p"}},
                                               {"php", {"-r"}},
                                               {"lua", {"-e"}},
                                               {"Rscript", {"-e"}}}};

std::string_view baseName(const std::string& word) {
  std::string_view name(word);
  return name.substr(name.find_last_of('/') + 1);
}

bool awkMayRun(const std::vector<std::string>& words) {
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word == "-f" || word.starts_with("--file")) return true;  // a program the line does not show
    if (word == "-v" || word == "-F") {
      ++i;
      continue;
    }
    if (word.starts_with("-")) continue;
    // The program: system(), a pipe to or from a command, or getline from one.
    return word.find("system") != std::string::npos || word.find('|') != std::string::npos;
  }
  return false;
}

}  // namespace

std::optional<std::string> runsUnseenCommands(const CommandWords& command) {
  if (command.words.empty()) return std::nullopt;
  const std::string_view name = baseName(command.words.front());
  const std::vector<std::string> arguments(command.words.begin() + 1, command.words.end());
  if (name == "sed") {
    if (!command.literal || sedMayRunCommands(arguments)) return "sed's e command or flag runs shell commands";
    return std::nullopt;
  }
  if (std::find(kAwks.begin(), kAwks.end(), name) != kAwks.end()) {
    if (!command.literal || awkMayRun(command.words)) return std::string(name) + " can run commands (system() or a pipe)";
    return std::nullopt;
  }
  for (const auto& interpreter : kInterpreters) {
    if (interpreter.name != name) continue;
    for (const auto& word : arguments) {
      bool inlineCode = std::any_of(interpreter.options.begin(), interpreter.options.end(), [&](std::string_view option) {
        return !option.empty() && (word == option || (word.starts_with(option) && option.size() == 2));
      });
      if (inlineCode) return std::string(name) + " runs code given on the command line";
    }
  }
  return std::nullopt;
}

}  // namespace lathe::tools::shell
