// A short command run to its end with its input given and its stdout and
// stderr captured apart (discovery and call commands of discovered tools):
// the JSON goes to stdin, stdout is the answer, stderr explains a failure.
// Bounded by a deadline and an output cap; cancel, the deadline or the cap
// kill the whole tree. The pipes (input written as the child takes it, so big
// input and big output cannot deadlock), the exit and the deadline are
// watched on the executor's reactor; the calling thread waits, and kills.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "protocol/exec/executor.h"
#include "tools/process/child_process.h"

namespace lathe::tools::process {

struct CapturedRunSpec {
  std::vector<std::string> argv;
  std::string cwd;
  EnvironmentChanges env;
  std::string input;  // written to stdin, which is then closed
  std::chrono::milliseconds timeout{60'000};
  size_t maxOutputBytes = 10 * 1024 * 1024;  // per stream
};

struct CapturedRun {
  std::string out;
  std::string err;
  ExitStatus exit;
  bool timedOut = false;
  bool cancelled = false;
  bool outputTooLarge = false;
  bool ok() const { return exit.success() && !timedOut && !cancelled && !outputTooLarge; }
};

// An error only when the command could not be started.
Result<CapturedRun> runCaptured(const CapturedRunSpec& spec, const CancelToken& cancel,
                                exec::Executor& executor = exec::Executor::shared());

}  // namespace lathe::tools::process
