// A child that speaks a protocol on its stdio (an MCP stdio server, later
// anything JSON-RPC): its stdout and stdin are a rpc::ByteChannel for a peer,
// or its stdout is read on the executor (readOutput), its stderr is captured
// line by line (logged, shown on failure). Spawned in its own session, so
// shutdown ends everything it started. No thread of its own: stderr (and
// stdout after readOutput) are read on the executor's reactor.
//
// Threads: spawn and shutdown on the owner's thread; the channel is read by
// one reading thread (unless readOutput was called) and written from any
// thread (the peer serialises writes); `onStderrLine` and readOutput's
// callbacks run on the executor's reactor and must not block.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/base/result.h"
#include "protocol/base/thread_annotations.h"
#include "protocol/exec/executor.h"
#include "protocol/exec/pipe_reader.h"
#include "protocol/jsonrpc/channel.h"
#include "tools/process/child_process.h"

namespace lathe::tools::process {

class ChildPipes;

struct ChildChannelOptions {
  // Each stderr line, without its '\n' (a last line without one counts at
  // end of output); lines longer than maxLineBytes are cut there.
  std::function<void(std::string_view line)> onStderrLine;
  size_t maxLineBytes = 16 * 1024;
  size_t keepStderrBytes = 16 * 1024;  // the tail of stderr kept for error messages
  exec::Executor* executor = nullptr;  // where the pipes are read; nullptr: Executor::shared()
};

class ChildChannel {
 public:
  // `spec.stdinMode` and `spec.output` are set here (pipe, separate).
  static Result<std::unique_ptr<ChildChannel>> spawn(ProcessSpec spec, ChildChannelOptions options = {});
  ~ChildChannel();  // shutdown(1 s), then stops reading
  ChildChannel(const ChildChannel&) = delete;
  ChildChannel& operator=(const ChildChannel&) = delete;

  pid_t pid() const { return child_->pid(); }
  // The child's stdout (read) and stdin (write); closeWrite() closes its stdin.
  // After readOutput() its read() is at end of input at once.
  rpc::ByteChannel& channel();

  // Reads stdout on the executor's reactor from now on: each chunk to onData,
  // then onEnd once at end of output. Once only. stopReading() (or the
  // destructor) ends the callbacks: after it returns none runs.
  void readOutput(exec::PipeReader::DataFn onData, exec::PipeReader::EndFn onEnd);
  void stopReading();

  // Ends the child: closes its stdin, waits up to `grace` for it to exit by
  // itself, then kills its whole tree. The channel then reads end of input.
  // Idempotent; returns the exit status.
  ExitStatus shutdown(std::chrono::milliseconds grace);
  // The exit status once the child has exited (without blocking).
  std::optional<ExitStatus> exited();
  // The last keepStderrBytes of stderr.
  std::string stderrTail() const;

 private:
  ChildChannel() = default;
  void takeStderr(std::string_view chunk);

  ChildChannelOptions options_;
  std::unique_ptr<ChildProcess> child_;
  std::unique_ptr<ChildPipes> pipes_;
  exec::PipeReader stdout_;
  exec::PipeReader stderr_;
  std::unique_ptr<exec::LineSplitter> stderrLines_;  // reactor only
  mutable Mutex mutex_;
  std::string stderrTail_ GUARDED_BY(mutex_);
};

}  // namespace lathe::tools::process
