// What a session keeps to rewind: each prompt that reached the model, in
// order (its words, where the conversation stood before it, the files it
// changed), and what the last /undo or /rewind took away, for /redo. Kept in
// the session's data folder as rewind.json (and the conversation /redo puts
// back in redo.json), written whole and atomically at each change, so a
// loaded session can still rewind. Not thread-safe: the turn's thread owns it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/model/content.h"
#include "protocol/base/result.h"
#include "tools/snapshots/change_recorder.h"

namespace lathe::engine {

struct PromptRecord {
  std::string text;            // the person's words, as typed
  size_t historyAt = 0;        // contents of the conversation before it
  size_t historyParts = 0;     // parts of the last content then (a prompt may join it)
  bool compressed = false;     // compressed since: the conversation cannot be cut here
  std::vector<tools::FileChange> files;  // before: as it was before the prompt; after: as the prompt left it
};

// What /redo puts back: the prompts, the conversation as it was, and per
// file what the rewind wrote (before) and what the file held then (after).
struct UndoneRecord {
  std::vector<PromptRecord> prompts;
  std::vector<Content> history;
  std::vector<tools::FileChange> files;
};

struct RewindLog {
  std::vector<PromptRecord> prompts;
  std::optional<UndoneRecord> undone;

  // Reads the log in `folder`; none there is an empty log.
  static Result<RewindLog> load(const std::string& folder);
  Status save(const std::string& folder) const;
};

}  // namespace lathe::engine
