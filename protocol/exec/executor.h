// The one place Lathe's concurrency lives: an io_context on one reactor thread
// for pipes, timers and signals, and worker threads for blocking work (a turn
// waits minutes on HTTP and tools), created on demand, reused, and retired
// after a while idle (an idle server keeps no worker). In inline mode (tests)
// nothing runs until the test calls drain() or advance(); timers there run on
// a manual clock, so a test decides exactly when each deadline passes.
// Asio stays inside protocol/exec's .cpp files.
//
// Threads: every member may be called from any thread. Timer callbacks (and
// pipe and signal callbacks) run on the reactor and must not block; work
// given to post() runs on a worker and may block. Handles (Timer, PipeReader,
// SignalWatcher, TaskGroup) must not outlive their executor.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

namespace lathe::exec {

// A pending callback; cancelled when the handle is destroyed.
class Timer {
 public:
  Timer();
  Timer(Timer&&) noexcept;
  Timer& operator=(Timer&&) noexcept;
  ~Timer();  // cancel()

  // After it returns the callback never runs and is not running (unless
  // called from the callback itself). Idempotent.
  void cancel();
  // True until the callback has run or the timer was cancelled.
  bool pending() const;

  struct State;

 private:
  friend class Executor;
  explicit Timer(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

class Executor {
 public:
  enum class Mode { threaded, manual };
  struct Options {
    Mode mode = Mode::threaded;
    std::chrono::milliseconds workerIdle{10000};  // an idle worker exits after this
    // Idle workers kept beyond a burst (each holds a stack and a heap arena);
    // the rest exit as soon as they find nothing to do.
    size_t maxIdleWorkers = 4;
  };

  Executor();
  explicit Executor(Options options);
  // Stops the reactor and waits for running work to return (queued work that
  // has not started is dropped).
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // The process's executor (threaded), never destroyed: work still blocked at
  // exit does not hold the process up.
  static Executor& shared();

  bool manual() const;

  // Runs `work` on a worker thread; it may block.
  void post(std::function<void()> work);
  // Starts a worker ahead of need when none is idle (threaded mode), so the
  // next post() finds one with its malloc arena made: a client's first
  // session/new right after initialize then waits for neither.
  void prestart();
  // Runs `fn` on the reactor; it must not block.
  void defer(std::function<void()> fn);
  // Runs `fn` on the reactor once `delay` has passed.
  [[nodiscard]] Timer after(std::chrono::milliseconds delay, std::function<void()> fn);

  // Manual mode: runs queued work, reactor callbacks and due timers until
  // nothing is ready; returns how many ran.
  size_t drain();
  // Manual mode: moves the clock on, firing the timers that fall due in
  // order (draining after each), then drains.
  void advance(std::chrono::milliseconds by);

  // Worker threads alive now (threaded mode; for tests and benchmarks).
  size_t workers() const;

  struct Impl;  // protocol/exec/executor_impl.h (includes Asio)
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace lathe::exec
