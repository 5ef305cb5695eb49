// What the shell tool needs around a sealed run (a line judged read-only that
// runs without the person's approval, in the read-only sandbox): the lines
// that failed sealed in this session (the same line is then asked about, so
// the person can let it run unsealed), and the words the model and the person
// read. SealedFailures is thread-safe; the rest is pure.
#pragma once

#include <mutex>
#include <set>
#include <string>

#include "tools/core/tool.h"

namespace lathe::tools::shell {

class SealedFailures {
 public:
  bool contains(const std::string& command) const;
  void add(const std::string& command);

 private:
  mutable std::mutex mutex_;
  std::set<std::string> commands_;
};

// Turns a read-only judgement into a question when the line cannot run
// sealed: bubblewrap does not work here (`unavailable` says why), or the
// same line already failed sealed in this session.
void askInsteadOfSealing(ExecConfirmation& details, const std::string& unavailable, bool failedSealedBefore);

// The model's note after a sealed run; a failure starts with
// "read-only sandbox: " and says how to get the line approved.
std::string sealedNoteForModel(bool failed);

// The person's marker after the output.
inline constexpr const char* kSealedDisplay = "[ran in the read-only sandbox]";

}  // namespace lathe::tools::shell
