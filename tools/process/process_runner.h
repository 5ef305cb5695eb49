// A command whose output is read until it ends: a ChildProcess with stdin
// from /dev/null and stdout and stderr merged, waited for on the calling
// thread with poll(), so cancel and inactivity are noticed at once; ending it
// kills the whole tree (process_tree.h). What shell commands (foreground and
// background) and the sandbox probe run through. Under bubblewrap
// (--unshare-pid) nothing survives a kill: the pid namespace dies with its
// first process.
//
// A ProcessRunner is used by one thread at a time.
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
#include "tools/process/child_process.h"

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
  std::function<void()> onTick;
};

struct RunExit {
  std::optional<int> exitCode;  // set when the command exited by itself
  int signal = 0;               // the signal that ended it, else 0
  bool cancelled = false;       // the cancel token fired; the tree was killed
  bool timedOut = false;        // inactivity; the tree was killed
};

using ChunkSink = std::function<void(std::string_view chunk)>;

class ProcessRunner {
 public:
  static Result<std::unique_ptr<ProcessRunner>> spawn(const RunSpec& spec);
  ProcessRunner(const ProcessRunner&) = delete;
  ProcessRunner& operator=(const ProcessRunner&) = delete;

  pid_t pgid() const { return child_->pid(); }
  bool exited() const { return child_->reaped(); }
  const RunExit& exit() const { return exit_; }

  // Reads output into `sink` until the command exits, `cancel` fires or the
  // inactivity limit passes (both kill the tree). Output still buffered when
  // it exits is read first.
  RunExit waitForExit(const CancelToken& cancel, const WaitOptions& options, const ChunkSink& sink);

  // After the command exited: keeps reading what the rest of its group writes
  // until no process of the tree is left, or `cancel` fires (kills the tree).
  void waitForTree(const CancelToken& cancel, const ChunkSink& sink, std::chrono::milliseconds killGrace);

  std::vector<pid_t> leftovers() const { return child_->leftovers(); }
  bool groupAlive() const { return child_->groupAlive(); }
  void killTree(std::chrono::milliseconds grace);

 private:
  explicit ProcessRunner(std::unique_ptr<ChildProcess> child) : child_(std::move(child)) {}
  void readAvailable(const ChunkSink& sink, size_t limit);
  void noteExit();

  std::unique_ptr<ChildProcess> child_;
  RunExit exit_;
};

// The argv that runs a command line under bash.
std::vector<std::string> bashArgv(const std::string& command);

}  // namespace lathe::tools::process
