// Exec confirmation details from a shell analysis.
#include "tools/shell/exec_confirmation.h"

namespace lathe::tools::shell {

ExecConfirmation execConfirmationFor(std::string command, const ShellAnalysis& analysis) {
  ExecConfirmation details;
  details.command = std::move(command);
  if (analysis.parsed && analysis.reasons.empty()) {
    details.rootCommands = rootCommands(analysis);
    for (const auto& words : analysis.commands) details.commands.push_back(words.words);
  }
  details.readOnly = isReadOnly(analysis);
  return details;
}

}  // namespace lathe::tools::shell
