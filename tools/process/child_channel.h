// A child that speaks a protocol on its stdio (an MCP stdio server, later
// anything JSON-RPC): its stdout and stdin are a rpc::ByteChannel for a peer,
// its stderr is captured line by line (logged, shown on failure). Spawned in
// its own session, so shutdown ends everything it started.
//
// Threads: spawn and shutdown on the owner's thread; the channel is read by
// the peer's reading thread and written from any thread (the peer serialises
// writes); `onStderrLine` runs on the channel's own stderr thread.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "protocol/base/result.h"
#include "protocol/jsonrpc/channel.h"
#include "tools/process/child_process.h"

namespace lathe::tools::process {

struct ChildChannelOptions {
  // Each stderr line, without its '\n' (a last line without one counts at
  // end of output); lines longer than maxLineBytes are cut there.
  std::function<void(std::string_view line)> onStderrLine;
  size_t maxLineBytes = 16 * 1024;
  size_t keepStderrBytes = 16 * 1024;  // the tail of stderr kept for error messages
};

class ChildChannel {
 public:
  // `spec.stdinMode` and `spec.output` are set here (pipe, separate).
  static Result<std::unique_ptr<ChildChannel>> spawn(ProcessSpec spec, ChildChannelOptions options = {});
  ~ChildChannel();  // shutdown(1 s)
  ChildChannel(const ChildChannel&) = delete;
  ChildChannel& operator=(const ChildChannel&) = delete;

  pid_t pid() const { return child_->pid(); }
  // The child's stdout (read) and stdin (write); closeWrite() closes its stdin.
  rpc::ByteChannel& channel() { return *channel_; }

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
  void pumpStderr(int fd);

  ChildChannelOptions options_;
  std::unique_ptr<ChildProcess> child_;
  std::unique_ptr<rpc::ByteChannel> channel_;
  std::thread stderrThread_;
  mutable std::mutex mutex_;
  std::string stderrTail_;
};

}  // namespace lathe::tools::process
