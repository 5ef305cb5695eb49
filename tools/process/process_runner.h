// One shell command as a child process tree: spawned in its own session and
// process group (pgid == sid == the shell's pid), stdin from /dev/null, stdout
// and stderr merged into one pipe, the agent markers in its environment. Waits
// on the calling thread with poll(), so cancel and inactivity are noticed at
// once; ending it kills the whole tree (SIGTERM, a grace period, SIGKILL).
//
// The tree is the process group and session plus every descendant still
// linked to them by parent pid. A kill freezes the tree (SIGSTOP) before it
// signals, so nothing forks away or is orphaned out of it meanwhile. Limit: a
// process that left the session (setsid) *and* whose parent had already
// exited before the kill (a daemon's double fork) was reparented to init and
// can no longer be told apart from strangers; it survives. Under the sandbox
// (bwrap --unshare-pid) nothing survives: the pid namespace dies with the
// shell.
//
// A ShellProcess is used by one thread at a time.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::tools::shell {

struct SpawnSpec {
  std::vector<std::string> argv;  // e.g. {"bash", "-c", command}; argv[0] is looked up in PATH
  std::string cwd;
  // Added to the parent's environment, after the fixed markers
  // (GEMINI_CLI=1, LATHE_AGENT=1, PAGER=cat, GIT_PAGER=cat).
  std::vector<std::pair<std::string, std::string>> env;
};

// The argv that runs a command line under bash.
std::vector<std::string> bashArgv(const std::string& command);

struct WaitOptions {
  std::chrono::milliseconds inactivity{0};  // no output for this long ends the tree; 0 = never
  std::chrono::milliseconds killGrace{2000};  // between SIGTERM and SIGKILL
  std::chrono::milliseconds tickInterval{0};  // onTick is called this often while waiting; 0 = never
  std::function<void()> onTick;
};

struct ShellExit {
  std::optional<int> exitCode;  // set when the shell exited by itself
  int signal = 0;               // the signal that ended the shell, else 0
  bool cancelled = false;       // the cancel token fired; the tree was killed
  bool timedOut = false;        // inactivity; the tree was killed
};

using ChunkSink = std::function<void(std::string_view chunk)>;

class ShellProcess {
 public:
  static Result<std::unique_ptr<ShellProcess>> spawn(const SpawnSpec& spec);
  // Kills the tree if the shell was never waited for; processes left behind
  // by a shell that exited by itself are left alone.
  ~ShellProcess();
  ShellProcess(const ShellProcess&) = delete;
  ShellProcess& operator=(const ShellProcess&) = delete;

  pid_t pgid() const { return pid_; }
  bool shellExited() const { return reaped_; }
  const ShellExit& exit() const { return exit_; }

  // Reads output into `sink` until the shell exits, `cancel` fires or the
  // inactivity limit passes (both kill the tree). Output still buffered when
  // the shell exits is read first.
  ShellExit waitForShell(const CancelToken& cancel, const WaitOptions& options, const ChunkSink& sink);

  // After the shell exited: keeps reading what the rest of its group writes
  // until no process of the tree is left, or `cancel` fires (kills the tree).
  void waitForTree(const CancelToken& cancel, const ChunkSink& sink, std::chrono::milliseconds killGrace);

  // The live (non-zombie) processes of the tree, the shell excluded.
  std::vector<pid_t> leftovers() const;
  // True when a process of the group is still alive (cheap: one kill(2)).
  bool groupAlive() const;

  // SIGSTOP to the tree until no new member shows up, then SIGTERM and
  // SIGCONT, SIGKILL to what is left after `grace`; returns when the tree is
  // gone (or after a further second of SIGKILLs).
  void killTree(std::chrono::milliseconds grace);

 private:
  ShellProcess() = default;
  void reap(bool block);
  void readAvailable(const ChunkSink& sink, size_t limit);

  pid_t pid_ = -1;
  int outFd_ = -1;   // read end of the merged stdout/stderr pipe
  int pidFd_ = -1;   // pidfd of the shell, -1 where unsupported
  bool reaped_ = false;
  bool outEof_ = false;
  ShellExit exit_;
};

// Every live process of the tree rooted at session/group `sid` (group or
// session members and their descendants), zombies excluded.
std::vector<pid_t> processTree(pid_t sid);

}  // namespace lathe::tools::shell
