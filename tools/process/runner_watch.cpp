// ProcessRunner's watch: the reactor's side of a command. The reader and the
// timers report here; the callbacks run under the watch's mutex, so that
// unwatch() (taking it) knows none is running once it returns. Output that
// arrives while nothing watches is held for the next watch (a foreground
// command's tree adopted by the background registry).
#include "protocol/base/thread_annotations.h"
#include "tools/process/process_runner.h"

namespace lathe::tools::process {
namespace {

constexpr size_t kHoldBytes = 4 * 1024 * 1024;     // beyond this, unwatched output is dropped
constexpr size_t kReadAtExit = 16 * 1024 * 1024;  // what a command wrote just before exiting

}  // namespace

struct ProcessRunner::Watch : std::enable_shared_from_this<ProcessRunner::Watch> {
  explicit Watch(exec::Executor& e) : executor(e) {}

  void output(std::string_view chunk) EXCLUDES(mutex) {
    MutexLock lock(mutex);
    if (!watching) {
      held.append(chunk.substr(0, kHoldBytes - std::min(kHoldBytes, held.size())));
      return;
    }
    armInactivity();  // a new deadline from now
    if (callbacks.onOutput) callbacks.onOutput(chunk);
  }

  void ended() EXCLUDES(mutex) {
    MutexLock lock(mutex);
    outputEnded = true;
    if (watching && callbacks.onOutputEnd) callbacks.onOutputEnd();
  }

  // One of the callbacks, if still watching.
  void tell(std::function<void()> WatchCallbacks::*which) EXCLUDES(mutex) {
    MutexLock lock(mutex);
    if (watching && callbacks.*which) (callbacks.*which)();
  }

  void ticked() EXCLUDES(mutex) {
    MutexLock lock(mutex);
    if (!watching) return;
    armTick();
    if (callbacks.onTick) callbacks.onTick();
  }

  void armInactivity() REQUIRES(mutex) {
    if (options.inactivity.count() <= 0) return;
    inactivity = executor.after(options.inactivity, [w = weak_from_this()] {
      if (auto self = w.lock()) self->tell(&WatchCallbacks::onInactive);
    });
  }

  void armTick() REQUIRES(mutex) {
    if (options.tickInterval.count() <= 0) return;
    tick = executor.after(options.tickInterval, [w = weak_from_this()] {
      if (auto self = w.lock()) self->ticked();
    });
  }

  void begin(const WatchOptions& watchOptions, WatchCallbacks watchCallbacks) EXCLUDES(mutex) {
    MutexLock lock(mutex);
    watching = true;
    options = watchOptions;
    callbacks = std::move(watchCallbacks);
    armInactivity();
    armTick();
    if (!held.empty() && callbacks.onOutput) callbacks.onOutput(held);
    held.clear();
    if (outputEnded && callbacks.onOutputEnd) callbacks.onOutputEnd();
  }

  void end() EXCLUDES(mutex) {
    exec::Timer lastInactivity, lastTick;
    WatchCallbacks lastCallbacks;
    {
      MutexLock lock(mutex);
      watching = false;
      lastCallbacks = std::move(callbacks);
      callbacks = {};
      lastInactivity = std::move(inactivity);
      lastTick = std::move(tick);
    }
    // Outside the lock: a timer callback running now waits for it, then
    // finds nothing watching.
    lastInactivity.cancel();
    lastTick.cancel();
  }

  exec::Executor& executor;
  Mutex mutex;
  bool watching GUARDED_BY(mutex) = false;
  WatchOptions options GUARDED_BY(mutex);
  WatchCallbacks callbacks GUARDED_BY(mutex);
  std::string held GUARDED_BY(mutex);
  bool outputEnded GUARDED_BY(mutex) = false;
  exec::Timer inactivity GUARDED_BY(mutex);
  exec::Timer tick GUARDED_BY(mutex);
};

ProcessRunner::ProcessRunner(std::unique_ptr<ChildProcess> child, exec::Executor& executor)
    : child_(std::move(child)), executor_(executor), watch_(std::make_shared<Watch>(executor)) {
  output_ = exec::PipeReader::start(
      executor_, child_->takeStdout(), [w = watch_](std::string_view chunk) { w->output(chunk); },
      [w = watch_] { w->ended(); });
}

ProcessRunner::~ProcessRunner() {
  unwatch();
  output_.stop();
}

void ProcessRunner::watch(const WatchOptions& options, WatchCallbacks callbacks) {
  watch_->begin(options, std::move(callbacks));
  if (child_->reaped()) return;
  exitWatch_ = ExitWatch::start(executor_, *child_, [this] {
    output_.readAvailable(kReadAtExit);  // in the sink before the exit is told
    watch_->tell(&WatchCallbacks::onExit);
  });
}

void ProcessRunner::unwatch() {
  exitWatch_.stop();
  watch_->end();
}

void ProcessRunner::readAvailable() { output_.readAvailable(kReadAtExit); }

}  // namespace lathe::tools::process
