// The shell analysis entry points: analyze a line, name its roots, judge it
// read-only, match settings prefixes. Pure; any thread.
#include "tools/shell/shell_analysis.h"

#include <algorithm>
#include <cctype>

#include "tools/core/shell_words.h"
#include "tools/shell/read_only_commands.h"
#include "tools/shell/shell_walker.h"
#include "tools/shell/unseen_commands.h"
#include "protocol/base/text.h"

namespace lathe::tools::shell {

const std::string& CommandWords::name() const {
  static const std::string kEmpty;
  return words.empty() ? kEmpty : words.front();
}

ShellAnalysis analyzeShellCommand(std::string_view command, const CancelToken& cancel) {
  ShellAnalysis analysis;
  analysis.parsed = true;
  analyzeScript(command, analysis, cancel, 0);
  if (analysis.parsed && analysis.commands.empty()) {
    analysis.parsed = false;
    analysis.reasons.push_back("runs no command");
  }
  if (!analysis.parsed) {
    analysis.commands.clear();
    analysis.writtenFiles.clear();
  }
  for (const auto& runs : analysis.commands) {
    if (auto why = runsUnseenCommands(runs)) analysis.runsUnseen.push_back(std::move(*why));
  }
  return analysis;
}

std::vector<std::string> rootCommands(const ShellAnalysis& analysis) {
  std::vector<std::string> roots;
  for (const auto& command : analysis.commands) {
    const std::string& name = command.name();
    if (!name.empty() && std::find(roots.begin(), roots.end(), name) == roots.end()) roots.push_back(name);
  }
  return roots;
}

bool isReadOnly(const ShellAnalysis& analysis) {
  if (!analysis.parsed || !analysis.reasons.empty() || !analysis.notReadOnly.empty() || !analysis.writtenFiles.empty() ||
      analysis.commands.empty()) {
    return false;
  }
  return std::all_of(analysis.commands.begin(), analysis.commands.end(), isReadOnlyCommand);
}

bool matchesPrefix(const CommandWords& command, const std::vector<std::string>& prefix) {
  if (prefix.empty() || prefix.size() > command.words.size()) return false;
  size_t literalWords = command.literal ? command.words.size() : std::min(command.literalPrefix, command.words.size());
  if (prefix.size() > literalWords) return false;
  return std::equal(prefix.begin(), prefix.end(), command.words.begin());
}

std::vector<std::string> shellPrefixFromSetting(std::string_view entry) {
  entry = text::trim(entry);
  size_t open = entry.find('(');
  if (open == std::string_view::npos || entry.back() != ')') return {};
  std::string_view tool = text::trim(entry.substr(0, open));
  if (tool != "run_shell_command" && tool != "ShellTool") return {};
  // An unclosed quote runs to the end: an exclusion still excludes.
  return splitShellWords(entry.substr(open + 1, entry.size() - open - 2)).words;
}

}  // namespace lathe::tools::shell
