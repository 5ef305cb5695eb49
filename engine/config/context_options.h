// The settings of context management (compression, tool output budgets, loop
// detection), read once at start-up. Plain values; any thread.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace lathe::engine {

struct ContextOptions {
  double compressionThreshold = 0.5;  // model.compressionThreshold: share of the context window
  int64_t toolOutputChars = 40'000;   // tools.truncateToolOutputThreshold: per tool response
  int64_t recentOutputChars = 200'000;  // the newest tool outputs kept whole; older ones are shortened
  bool loopDetection = true;          // !model.disableLoopDetection
  bool titles = true;                 // a title after the first exchange (session_info_update)
  // model.summarizeToolOutput: tool name -> token budget of a model-written
  // summary that replaces that tool's long outputs (errors kept verbatim)
  std::map<std::string, int64_t> summarizeTools;
};

// Of a response budget, the share kept as text: the rest is room for the notes
// (what was left out, where it is saved, the error lines of the left-out part).
inline int64_t keptCharsOf(int64_t budgetChars) { return budgetChars * 3 / 5; }

}  // namespace lathe::engine
