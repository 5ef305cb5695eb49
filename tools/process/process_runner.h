// A command whose output is read until it ends: a ChildProcess with stdin
// from /dev/null and stdout and stderr merged, its output read and its exit
// noticed on the executor's reactor (no thread or poll() loop of its own), so
// cancel and inactivity are noticed at once; ending it kills the whole tree
// (process_tree.h), never on the reactor. What shell commands (foreground and
// background) and the sandbox probe run through. Under bubblewrap
// (--unshare-pid) nothing survives a kill: the pid namespace dies with its
// first process.
//
// Threads: a ProcessRunner is used by one thread at a time (watch callbacks
// aside, which run on the reactor; see watch()).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "protocol/exec/executor.h"
#include "protocol/exec/pipe_reader.h"
#include "tools/process/child_process.h"
#include "tools/process/exit_watch.h"

namespace lathe::tools::process {

struct RunSpec {
  std::vector<std::string> argv;  // e.g. {"bash", "-c", command}; argv[0] is looked up in PATH
  std::string cwd;
  EnvironmentChanges env;  // applied to the parent's environment
};

struct WaitOptions {
  std::chrono::milliseconds inactivity{0};    // no output for this long ends the tree; 0 = never
  std::chrono::milliseconds killGrace{2000};  // between SIGTERM and SIGKILL
  std::chrono::milliseconds tickInterval{0};  // onTick is called this often while waiting; 0 = never
  std::function<void()> onTick;               // on the waiting thread, like the sink
};

struct RunExit {
  std::optional<int> exitCode;  // set when the command exited by itself
  int signal = 0;               // the signal that ended it, else 0
  bool cancelled = false;       // the cancel token fired; the tree was killed
  bool timedOut = false;        // inactivity; the tree was killed
};

using ChunkSink = std::function<void(std::string_view chunk)>;

struct WatchOptions {
  std::chrono::milliseconds inactivity{0};    // onInactive after this long without output; 0 = never
  std::chrono::milliseconds tickInterval{0};  // onTick this often; 0 = never
};

// What a watch tells, on the reactor (must not block, nor call unwatch()).
struct WatchCallbacks {
  ChunkSink onOutput;
  std::function<void()> onExit;       // the command exited (reap it with reapIfExited())
  std::function<void()> onOutputEnd;  // no process of the tree holds the output any more
  std::function<void()> onInactive;   // WatchOptions::inactivity passed without output
  std::function<void()> onTick;
};

class ProcessRunner {
 public:
  // Its output is read from now on, on `executor` (a manual one serves
  // watch() in tests; waitForExit needs a threaded one).
  static Result<std::unique_ptr<ProcessRunner>> spawn(const RunSpec& spec,
                                                      exec::Executor& executor = exec::Executor::shared());
  ~ProcessRunner();  // unwatch(), stops reading; a command never reaped has its tree killed
  ProcessRunner(const ProcessRunner&) = delete;
  ProcessRunner& operator=(const ProcessRunner&) = delete;

  pid_t pgid() const { return child_->pid(); }
  bool exited() const { return child_->reaped(); }
  const RunExit& exit() const { return exit_; }

  // Blocks the calling thread (a tool's worker) while output goes to `sink`
  // (on this thread), until the command exits, `cancel` fires or the
  // inactivity limit passes (both kill the tree here). Output written before
  // the exit is in the sink when it returns.
  RunExit waitForExit(const CancelToken& cancel, const WaitOptions& options, const ChunkSink& sink);

  // Tells `callbacks` on the reactor from now until unwatch(): output (first
  // what arrived while nothing watched, given from watch() itself), exit,
  // end of output, inactivity, ticks. One watch at a time.
  void watch(const WatchOptions& options, WatchCallbacks callbacks);
  // After it returns no callback runs and none is running (not from one).
  // Output arriving later is held for the next watch.
  void unwatch();
  // On the reactor (a callback, or work deferred there): reads what the
  // output pipe holds right now into onOutput.
  void readAvailable();
  // Reaps the command if it exited, without blocking; true once reaped.
  bool reapIfExited();

  std::vector<pid_t> leftovers() const { return child_->leftovers(); }
  bool groupAlive() const { return child_->groupAlive(); }
  void killTree(std::chrono::milliseconds grace);

  struct Watch;

 private:
  ProcessRunner(std::unique_ptr<ChildProcess> child, exec::Executor& executor);
  void noteExit();

  std::unique_ptr<ChildProcess> child_;
  exec::Executor& executor_;
  std::shared_ptr<Watch> watch_;  // shared with the reader's callbacks
  exec::PipeReader output_;
  ExitWatch exitWatch_;
  RunExit exit_;
};

// The argv that runs a command line under bash.
std::vector<std::string> bashArgv(const std::string& command);

}  // namespace lathe::tools::process
