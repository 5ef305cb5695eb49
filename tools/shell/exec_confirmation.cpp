// Exec confirmation details from a shell analysis.
#include "tools/shell/exec_confirmation.h"

#include <algorithm>

namespace lathe::tools::shell {

ExecConfirmation execConfirmationFor(std::string command, const ShellAnalysis& analysis) {
  ExecConfirmation details;
  details.command = std::move(command);
  details.parsed = analysis.parsed;
  details.understood = analysis.parsed && analysis.reasons.empty();
  if (details.understood) details.rootCommands = rootCommands(analysis);
  for (const auto& runs : analysis.commands) {
    size_t literal = std::min(runs.literal ? runs.words.size() : runs.literalPrefix, runs.words.size());
    details.commands.emplace_back(runs.words.begin(), runs.words.begin() + literal);
  }
  details.writtenFiles = analysis.writtenFiles;
  details.readOnly = isReadOnly(analysis);
  if (!analysis.runsUnseen.empty()) details.runsUnseen = analysis.runsUnseen.front();
  return details;
}

}  // namespace lathe::tools::shell
