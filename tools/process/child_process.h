// One child process, spawned the one way Lathe spawns anything (shell
// commands, MCP stdio servers, discovery commands, test helpers): posix_spawn
// into its own session (or only its own process group), stdin from /dev/null
// or a pipe, stdout and stderr merged into one pipe, separate, or discarded,
// the environment built from the parent's with changes, every other descriptor
// closed, signal dispositions reset. The whole tree can be killed
// (process_tree.h) and the exit status (with resource usage) is collected by
// wait4.
//
// A ChildProcess is used by one thread at a time; its descriptors may be taken
// over by other owners (take*), e.g. a JSON-RPC channel or a reader thread.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/base/result.h"
#include "tools/process/environment.h"

namespace lathe::tools::process {

enum class StdinMode { null, pipe };
enum class OutputMode {
  merged,    // stdout and stderr into one pipe (stdoutFd), in the order written
  separate,  // one pipe each
  discard,   // both to /dev/null
};
enum class Grouping {
  newSession,  // setsid: own session and group, no controlling terminal
  newGroup,    // own process group in our session
};

struct ProcessSpec {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH when it has no '/'
  std::string cwd;                // empty: the parent's
  EnvironmentChanges env;
  StdinMode stdinMode = StdinMode::null;
  OutputMode output = OutputMode::merged;
  Grouping grouping = Grouping::newSession;
};

struct ExitStatus {
  std::optional<int> exitCode;  // set when it exited by itself
  int signal = 0;               // the signal that ended it, else 0
  // From wait4 (ru_maxrss covers waited-for descendants too; Linux carries
  // the spawner's RSS over exec, so small children read high).
  long maxRssKb = 0;
  double userSeconds = 0;
  double systemSeconds = 0;

  bool exited() const { return signal == 0 && exitCode.has_value(); }
  bool success() const { return signal == 0 && exitCode == 0; }
  std::string describe() const;  // "exit 0", "signal 9", "unknown"
};

class ChildProcess {
 public:
  static Result<std::unique_ptr<ChildProcess>> spawn(const ProcessSpec& spec);
  // Kills the tree if the child was never reaped; closes the descriptors it
  // still owns. Processes left behind by a child that exited are left alone.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }  // also its process group id (and session id)

  // Pipe ends (-1 when not piped, closed or taken). take* hands the
  // descriptor over: the caller closes it.
  int stdinFd() const { return stdinFd_; }
  int stdoutFd() const { return stdoutFd_; }
  int stderrFd() const { return stderrFd_; }
  int takeStdin();
  int takeStdout();
  int takeStderr();
  void closeStdin();
  void closeStdout();
  // Readable once the child exited (poll it); -1 where pidfds are unsupported.
  int pidFd() const { return pidFd_; }

  // Reaps the child without blocking; true once it has been reaped.
  bool tryReap();
  // Blocks until the child exits.
  const ExitStatus& waitExit();
  // Waits up to `timeout`; nullopt while it still runs.
  std::optional<ExitStatus> waitFor(std::chrono::milliseconds timeout);
  bool reaped() const { return reaped_; }
  const ExitStatus& exit() const { return exit_; }

  // Signals the process group (nothing once the child has been reaped: its
  // pid may be someone else's by then).
  void signalGroup(int sig);
  // Freezes and kills the whole tree (see process_tree.h); returns when it is gone.
  void killTree(std::chrono::milliseconds grace);
  // The live processes of the tree, the child excluded.
  std::vector<pid_t> leftovers() const;
  // True when a process of the group is still alive.
  bool groupAlive() const;

 private:
  ChildProcess() = default;
  void reap(bool block);

  pid_t pid_ = -1;
  int stdinFd_ = -1;
  int stdoutFd_ = -1;
  int stderrFd_ = -1;
  int pidFd_ = -1;
  bool reaped_ = false;
  ExitStatus exit_;
};

}  // namespace lathe::tools::process
