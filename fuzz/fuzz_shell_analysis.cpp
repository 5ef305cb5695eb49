// Fuzz target: shell analysis (tree-sitter-bash parse, wrappers looked
// through). Invariants: a line that did not parse carries no commands and no
// written files, and a read-only verdict needs a parsed line without written
// files. Single-threaded.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tools/shell/shell_analysis.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace lathe::tools::shell;
  std::string_view command(reinterpret_cast<const char*>(data), size);
  ShellAnalysis analysis = analyzeShellCommand(command);
  if (!analysis.parsed && (!analysis.commands.empty() || !analysis.writtenFiles.empty())) abort();
  if (isReadOnly(analysis) && (!analysis.parsed || !analysis.writtenFiles.empty())) abort();
  (void)rootCommands(analysis);
  (void)shellPrefixFromSetting(command);
  return 0;
}
