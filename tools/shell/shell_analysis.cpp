// The shell analysis entry points: analyze a line, name its roots, judge it
// read-only, match settings prefixes. Pure; any thread.
#include "tools/shell/shell_analysis.h"

#include <algorithm>
#include <cctype>

#include "tools/shell/read_only_commands.h"
#include "tools/shell/shell_walker.h"

namespace lathe::tools::shell {

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

// Splits a settings prefix into words the way a shell would: blanks
// separate, quotes group, a backslash escapes the next character.
std::vector<std::string> splitWords(std::string_view text) {
  std::vector<std::string> words;
  std::string current;
  bool inWord = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) {
        current += text[++i];
      } else {
        current += c;
      }
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (inWord) words.push_back(std::move(current));
      current.clear();
      inWord = false;
    } else if (c == '\'' || c == '"') {
      quote = c;
      inWord = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      current += text[++i];
      inWord = true;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (inWord) words.push_back(std::move(current));
  return words;
}

}  // namespace

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
  entry = trim(entry);
  size_t open = entry.find('(');
  if (open == std::string_view::npos || entry.back() != ')') return {};
  std::string_view tool = trim(entry.substr(0, open));
  if (tool != "run_shell_command" && tool != "ShellTool") return {};
  return splitWords(entry.substr(open + 1, entry.size() - open - 2));
}

}  // namespace lathe::tools::shell
