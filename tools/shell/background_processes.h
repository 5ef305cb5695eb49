// The background commands of one session: started by run_shell_command with
// is_background (or left running by a foreground command), listed, read and
// killed by id, all ended with the session. No thread of their own: each
// command is spawned on the executor's reactor, its output read there into a
// ring buffer of recent output (and a log file with all of it), its exit and
// then the end of its whole tree noticed there; kill() ends a tree on the
// caller's thread. Thread-safe (not to be called from the reactor).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/result.h"
#include "protocol/exec/executor.h"
#include "tools/process/process_runner.h"

namespace lathe::tools::shell {

struct BackgroundInfo {
  int64_t id = 0;  // the shell's pid, which is also its process group id
  std::string command;
  std::string cwd;
  std::chrono::system_clock::time_point started;
  bool running = true;             // a process of its tree is alive
  std::optional<int> exitCode;     // the shell's, once it exited by itself
  int signal = 0;                  // the signal that ended the shell
  bool killed = false;             // ended by kill() or killAll()
  uint64_t outputBytes = 0;        // all output so far
  std::string logPath;             // the whole output, when a log directory was given
};

struct BackgroundOutput {
  BackgroundInfo info;
  std::string text;         // the last lines asked for (terminal text)
  size_t linesShown = 0;
  size_t linesKept = 0;     // lines in the kept recent output
  bool olderDropped = false;  // output before the kept part is gone from memory
};

struct BackgroundOptions {
  size_t keepBytes = 1024 * 1024;  // recent output kept in memory per command
  std::chrono::milliseconds killGrace{2000};
  size_t keepFinished = 50;        // finished commands still listed
  // Where commands are spawned and watched (threaded: start() waits for its
  // reactor); nullptr: Executor::shared().
  exec::Executor* executor = nullptr;
};

class BackgroundProcesses {
 public:
  explicit BackgroundProcesses(BackgroundOptions options = {});
  ~BackgroundProcesses();  // killAll()
  BackgroundProcesses(const BackgroundProcesses&) = delete;
  BackgroundProcesses& operator=(const BackgroundProcesses&) = delete;

  // Spawns the command on the reactor and returns once it runs (or could not
  // start). `logDir`, when not empty, receives background-<id>.log.
  Result<BackgroundInfo> start(process::RunSpec spec, std::string command, std::string logDir = {});
  // Takes over a foreground command whose shell exited but whose tree still
  // runs; `earlierOutput` is what it printed so far.
  Result<BackgroundInfo> adopt(std::unique_ptr<process::ProcessRunner> runner, std::string command, std::string cwd,
                               std::string_view earlierOutput, std::string logDir = {});

  std::vector<BackgroundInfo> list() const;  // oldest first
  std::optional<BackgroundInfo> info(int64_t id) const;
  // The last `maxLines` lines of recent output, at most `maxBytes`.
  Result<BackgroundOutput> readOutput(int64_t id, size_t maxLines, size_t maxBytes) const;
  // Ends the command's whole tree; returns when it is gone.
  Status kill(int64_t id);
  // Ends every command; later starts are refused. Called when the session ends.
  void killAll();

 private:
  struct Entry;
  Result<BackgroundInfo> launch(std::shared_ptr<Entry> entry, process::RunSpec* spec, std::unique_ptr<process::ProcessRunner> runner);
  void pruneFinished();  // caller holds mutex_

  BackgroundOptions options_;
  exec::Executor& executor_;
  mutable std::mutex mutex_;
  std::map<int64_t, std::shared_ptr<Entry>> entries_;
  bool closed_ = false;
};

}  // namespace lathe::tools::shell
