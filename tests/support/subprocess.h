// A child process with pipes on stdin, stdout and stderr, in its own process
// group, for end-to-end tests and benchmarks; spawned by the product's process
// module (tools/process/child_process.h). One background thread per child
// drains stdout and stderr into buffers, so the child never blocks on a full
// pipe; the public methods are thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "protocol/base/result.h"
#include "tools/process/child_process.h"

namespace lathe::testing {

struct SubprocessOptions {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH when it has no '/'
  std::vector<std::pair<std::string, std::string>> env;  // added to (or overriding) the parent's
  std::vector<std::string> unsetEnv;                     // removed from the parent's
  std::string cwd;                                       // empty: the parent's
};

// exitCode, signal, maxRssKb (from wait4: it never reads below the test
// process's own RSS, so small children need /proc sampling, see
// bench/memory_sampler.h), user and system seconds.
using ExitStatus = tools::process::ExitStatus;

class Subprocess {
 public:
  static Result<std::unique_ptr<Subprocess>> spawn(const SubprocessOptions& options);
  static Result<std::unique_ptr<Subprocess>> spawn(std::vector<std::string> argv);
  ~Subprocess();  // kills the process group and reaps the child
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  pid_t pid() const { return pid_; }

  // False once stdin is closed or the child stopped reading.
  bool writeStdin(std::string_view text);
  void closeStdin();

  // The next stdout line without its '\n' (a last line without one counts at
  // end of output); nullopt on timeout or when stdout ended.
  std::optional<std::string> readLine(std::chrono::milliseconds timeout);
  // Whatever stdout bytes are buffered, waiting up to timeout for the first;
  // nullopt on timeout or end of output.
  std::optional<std::string> readSome(std::chrono::milliseconds timeout);
  bool stdoutEnded() const;  // end of output and nothing left buffered

  // Stderr collected so far; drainStderr() also empties the buffer.
  std::string stderrText() const;
  std::string drainStderr();

  // Reaps the child; nullopt while it is still running after timeout.
  std::optional<ExitStatus> wait(std::chrono::milliseconds timeout);
  std::optional<ExitStatus> exitStatus() const;
  // Signals the whole process group (SIGKILL by default).
  void kill(int sig = 9);

 private:
  Subprocess() = default;
  void readerLoop();

  std::unique_ptr<tools::process::ChildProcess> child_;  // guarded by waitMutex_
  pid_t pid_ = -1;
  int stdinFd_ = -1;
  int stdoutFd_ = -1;
  int stderrFd_ = -1;
  int wakeRead_ = -1;  // a self-pipe that tells the reader thread to stop
  int wakeWrite_ = -1;
  std::thread reader_;

  mutable std::mutex mutex_;
  std::condition_variable outputChanged_;
  std::string stdoutBuffer_;
  std::string stderrBuffer_;
  bool stdoutEof_ = false;
  bool stderrEof_ = false;
  std::mutex stdinMutex_;
  mutable std::mutex waitMutex_;
  std::optional<ExitStatus> status_;
};

// True while pid exists and is not a zombie (in a container, nobody may reap
// orphans promptly, so a dead process can linger as a zombie).
bool processAlive(pid_t pid);

}  // namespace lathe::testing
