// Captured runs: stdin written, stdout and stderr read and the exit noticed
// on the reactor, the deadline a timer there; the calling thread waits for
// both outputs to end and the exit (or cancel, the deadline, the cap), then
// kills the tree if it must and reaps the child.
#include "tools/process/captured_run.h"

#include <memory>

#include "protocol/exec/pipe_reader.h"
#include "protocol/exec/pipe_writer.h"
#include "tools/process/exit_watch.h"
#include "tools/process/wake_flags.h"

namespace lathe::tools::process {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kKillGrace{1000};

enum : unsigned {
  kOutEnded = 1,
  kErrEnded = 2,
  kExited = 4,
  kTimedOut = 8,
  kCancelled = 16,
  kTooLarge = 32,
};

bool finished(unsigned raised) {
  const unsigned all = kOutEnded | kErrEnded | kExited;
  return (raised & all) == all || (raised & (kTimedOut | kCancelled | kTooLarge)) != 0;
}

// Starts reading `fd` into `into`; a stream over `cap` raises kTooLarge.
exec::PipeReader capture(exec::Executor& executor, int fd, std::string& into, size_t cap, WakeFlags& flags,
                         unsigned endFlag) {
  if (fd < 0) {
    flags.raise(endFlag);
    return {};
  }
  return exec::PipeReader::start(
      executor, fd,
      [&into, cap, &flags](std::string_view chunk) {
        if (into.size() + chunk.size() > cap) {
          into.append(chunk.substr(0, cap - into.size()));
          flags.raise(kTooLarge);
          return;
        }
        into.append(chunk);
      },
      [&flags, endFlag] { flags.raise(endFlag); });
}

}  // namespace

Result<CapturedRun> runCaptured(const CapturedRunSpec& spec, const CancelToken& cancel, exec::Executor& executor) {
  ProcessSpec processSpec;
  processSpec.argv = spec.argv;
  processSpec.cwd = spec.cwd;
  processSpec.env = spec.env;
  processSpec.stdinMode = StdinMode::pipe;
  processSpec.output = OutputMode::separate;
  processSpec.grouping = Grouping::newSession;
  auto spawned = ChildProcess::spawn(processSpec);
  if (!spawned) return spawned.error();
  std::unique_ptr<ChildProcess> child = std::move(spawned).value();

  CapturedRun run;
  WakeFlags flags;
  auto registration = cancel.onCancel([&] { flags.raise(kCancelled); });
  exec::Timer deadline = executor.after(spec.timeout, [&] { flags.raise(kTimedOut); });
  exec::PipeWriter input;
  if (spec.input.empty()) {
    child->closeStdin();
  } else {
    input = exec::PipeWriter::start(executor, child->takeStdin(), spec.input, [](bool) {});
  }
  exec::PipeReader out = capture(executor, child->takeStdout(), run.out, spec.maxOutputBytes, flags, kOutEnded);
  exec::PipeReader err = capture(executor, child->takeStderr(), run.err, spec.maxOutputBytes, flags, kErrEnded);
  ExitWatch exit = ExitWatch::start(executor, *child, [&] { flags.raise(kExited); });

  unsigned raised = flags.waitUntil(finished);
  // Nothing on the reactor touches `run` or the child after these.
  out.stop();
  err.stop();
  input.stop();
  exit.stop();
  deadline.cancel();
  run.cancelled = (raised & kCancelled) != 0;
  run.timedOut = !run.cancelled && (raised & kTimedOut) != 0;
  run.outputTooLarge = (raised & kTooLarge) != 0;
  if (run.cancelled || run.timedOut || run.outputTooLarge) child->killTree(kKillGrace);
  run.exit = child->reaped() ? child->exit() : child->waitExit();
  return run;
}

}  // namespace lathe::tools::process
