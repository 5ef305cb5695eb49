// Spawning a command and waiting for it on a worker: the reactor watches
// (runner_watch.cpp) and raises flags; the worker sleeps on them, hands the
// output to the sink and runs onTick on its own thread (as before: the sink
// and onTick share the caller's state), and kills the tree itself, so the
// grace of a kill never holds up the reactor.
#include "tools/process/process_runner.h"

#include <deque>

#include "protocol/base/thread_annotations.h"
#include "tools/process/wake_flags.h"

namespace lathe::tools::process {
namespace {

enum : unsigned { kExited = 1, kCancelled = 2, kInactive = 4, kTick = 8, kOutput = 16 };

// Chunks read on the reactor, for the sink on the waiting thread.
class ChunkQueue {
 public:
  void push(std::string_view chunk) EXCLUDES(mutex_) {
    MutexLock lock(mutex_);
    chunks_.emplace_back(chunk);
  }
  void drainTo(const ChunkSink& sink) EXCLUDES(mutex_) {
    std::deque<std::string> taken;
    {
      MutexLock lock(mutex_);
      taken.swap(chunks_);
    }
    if (sink) {
      for (const auto& chunk : taken) sink(chunk);
    }
  }

 private:
  Mutex mutex_;
  std::deque<std::string> chunks_ GUARDED_BY(mutex_);
};

}  // namespace

std::vector<std::string> bashArgv(const std::string& command) { return {"bash", "-c", command}; }

Result<std::unique_ptr<ProcessRunner>> ProcessRunner::spawn(const RunSpec& spec, exec::Executor& executor) {
  ProcessSpec child;
  child.argv = spec.argv;
  child.cwd = spec.cwd;
  child.env = spec.env;
  child.stdinMode = StdinMode::null;
  child.output = OutputMode::merged;
  child.grouping = Grouping::newSession;
  auto spawned = ChildProcess::spawn(child);
  if (!spawned) return spawned.error();
  return std::unique_ptr<ProcessRunner>(new ProcessRunner(std::move(spawned).value(), executor));
}

void ProcessRunner::noteExit() {
  const ExitStatus& status = child_->exit();
  exit_.exitCode = status.exitCode;
  exit_.signal = status.signal;
}

void ProcessRunner::killTree(std::chrono::milliseconds grace) {
  child_->killTree(grace);
  if (child_->reaped()) noteExit();
}

bool ProcessRunner::reapIfExited() {
  if (child_->tryReap()) noteExit();
  return child_->reaped();
}

RunExit ProcessRunner::waitForExit(const CancelToken& cancel, const WaitOptions& options, const ChunkSink& sink) {
  if (child_->reaped()) return exit_;
  WakeFlags flags;
  ChunkQueue output;
  auto registration = cancel.onCancel([&] { flags.raise(kCancelled); });
  WatchCallbacks callbacks;
  callbacks.onOutput = [&](std::string_view chunk) {
    output.push(chunk);
    flags.raise(kOutput);
  };
  callbacks.onExit = [&] { flags.raise(kExited); };
  callbacks.onInactive = [&] { flags.raise(kInactive); };
  callbacks.onTick = [&] { flags.raise(kTick); };
  watch({options.inactivity, options.onTick ? options.tickInterval : std::chrono::milliseconds(0)},
        std::move(callbacks));
  const unsigned ending = kExited | kCancelled | kInactive;
  unsigned raised = 0;
  while (!(raised & ending) && !cancel.cancelled()) {
    raised = flags.waitUntil([](unsigned r) { return r != 0; });
    flags.take(kOutput);
    output.drainTo(sink);
    if (flags.take(kTick)) options.onTick();
  }
  // The kill comes first: cancel -> tree gone is what the person waits for.
  // The watch's callbacks never touch the child, so they may still run.
  if (cancel.cancelled() || (raised & kCancelled)) {
    killTree(options.killGrace);
    exit_.cancelled = true;
  } else if (raised & kExited) {
    child_->waitExit();
    noteExit();
  } else {
    killTree(options.killGrace);
    exit_.timedOut = true;
  }
  unwatch();
  output.drainTo(sink);
  return exit_;
}

}  // namespace lathe::tools::process
