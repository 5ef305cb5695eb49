// What one hook's run came to, under Gemini CLI's contract: exit 0 and
// stdout a JSON object (or nothing) is an answer; exit 2 blocks, its stderr
// the reason; anything else is a failure (any other exit, a signal, its
// timeout, output that is not a JSON object, too much output, a command that
// could not start). Unlike Gemini CLI, which lets a call through when a hook
// fails or prints plain text, Lathe treats every failure as a failure: the
// events that can stop something are stopped (fail closed, hook_verdict.h).
// Pure; any thread.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "protocol/base/json.h"

namespace lathe::engine {

struct HookResult {
  enum class Kind { answered, blocked, failed, cancelled } kind = Kind::answered;
  // The JSON object it printed (answered, and blocked when it printed one); null: none.
  std::shared_ptr<const json::Document> output;
  std::string why;  // blocked: its reason (stderr); failed: what went wrong, for the person
  std::chrono::milliseconds duration{0};

  // Fields of the output (absent ones read as empty / false).
  std::string text(const char* field) const;
  bool flag(const char* field, bool otherwise) const;
  // hookSpecificOutput, when it is an object; else null.
  const json::Value* specific() const;
  // hookSpecificOutput.<field> when it is a string.
  std::string specificText(const char* field) const;
};

// How a run ended, as the process machinery reports it.
struct FinishedRun {
  std::optional<int> exitCode;  // set when it exited by itself
  int signal = 0;
  bool timedOut = false;
  bool cancelled = false;
  bool outputTooLarge = false;
  std::string out;
  std::string err;
  std::string startError;  // set when it could not start
};

HookResult judgeHookRun(const FinishedRun& run, std::chrono::milliseconds timeout);

}  // namespace lathe::engine
