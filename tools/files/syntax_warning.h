// What the edit tools (write_file, replace) add to a successful write when it
// broke the file's syntax: the warning from tools/syntax/syntax_check.h, for
// the model (a text part after the result) and for the person (a display
// note). The write stands. Header-only; the tool's worker thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "protocol/base/cancel.h"
#include "tools/syntax/syntax_check.h"
#include "tools/core/tool.h"

namespace lathe::tools {

// `before` and `after` are the normalized texts the diff shows (before:
// nullopt for a new file).
inline void addSyntaxWarning(ToolResult& result, const std::string& path, const std::optional<std::string>& before,
                             const std::string& after, const CancelToken& cancel) {
  std::optional<std::string_view> old;
  if (before) old = *before;
  auto warning = syntax::describeIntroducedProblems(path, old, after, cancel);
  if (!warning) return;
  result.llmContent.push_back(LlmPart{"\n\n" + *warning, {}, {}});
  result.displayNotes.push_back(std::move(*warning));
}

}  // namespace lathe::tools
