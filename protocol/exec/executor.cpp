// Executor: the reactor thread, the worker pool and timers (both modes).
#include "protocol/exec/executor.h"

#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdlib>

#include "protocol/base/log.h"
#include "protocol/exec/callback_gate.h"
#include "protocol/exec/executor_impl.h"

namespace lathe::exec {
namespace {

// A task's exception must not end the process (it would on a worker thread):
// it is logged, and the worker goes on.
void runGuarded(std::function<void()>& work) {
  try {
    work();
  } catch (const std::exception& e) {
    log(LogLevel::error, std::string("a background task failed: ") + e.what());
  } catch (...) {
    log(LogLevel::error, "a background task failed");
  }
}

}  // namespace

struct Timer::State {
  CallbackGate gate;
  std::function<void()> fn;  // set before the timer is armed; only fire() calls it
  std::atomic<bool> done{false};
  std::unique_ptr<asio::steady_timer> timer;  // threaded mode; touched on the reactor only
  asio::io_context* io = nullptr;             // threaded mode

  void fire() {
    if (done.exchange(true)) return;
    gate.run([&] { fn(); });
  }
};

Timer::Timer() = default;
Timer::Timer(std::shared_ptr<State> state) : state_(std::move(state)) {}
Timer::Timer(Timer&&) noexcept = default;
Timer& Timer::operator=(Timer&& other) noexcept {
  if (this != &other) {
    cancel();
    state_ = std::move(other.state_);
  }
  return *this;
}
Timer::~Timer() { cancel(); }

void Timer::cancel() {
  if (!state_) return;
  state_->done = true;
  state_->gate.close();
  if (state_->io) {
    // Frees the armed timer now rather than at its deadline.
    asio::post(*state_->io, [s = state_] {
      if (s->timer) s->timer->cancel();
    });
  }
  state_.reset();
}

bool Timer::pending() const { return state_ && !state_->done.load(); }

Executor::Impl::Impl(Options opts) : options(opts), keepRunning(asio::make_work_guard(io)) {}

Executor::Impl::~Impl() {
  {
    MutexLock lock(mutex);
    stopping = true;
    queue.clear();
    wake.notifyAll();
    while (!threads.empty()) exited.wait(lock);
  }
  keepRunning.reset();
  io.stop();
  if (reactorThread.joinable()) reactorThread.join();
}

asio::io_context& Executor::Impl::reactor() {
  if (options.mode == Mode::threaded) {
    std::call_once(reactorStarted, [&] { reactorThread = std::thread([this] { io.run(); }); });
  }
  return io;
}

void Executor::Impl::post(std::function<void()> work) {
  MutexLock lock(mutex);
  if (stopping) return;
  queue.push_back(std::move(work));
  if (options.mode == Mode::manual) return;
  if (idle + starting >= queue.size()) {
    wake.notifyOne();  // a starting worker looks at the queue before it idles
  } else {
    startWorker();
  }
}

void Executor::Impl::prestart() {
  MutexLock lock(mutex);
  if (options.mode == Mode::manual || stopping || idle + starting > queue.size()) return;
  startWorker();
}

void Executor::Impl::startWorker() {
  auto self = threads.emplace(threads.end());
  try {
    *self = std::thread([this, self] {
      void* volatile block = std::malloc(64);  // makes the thread's arena now; volatile: not elided
      std::free(block);
      workerLoop(self);
    });
  } catch (...) {
    threads.erase(self);  // no thread to wait for at destruction
    throw;
  }
  ++starting;
}

void Executor::Impl::workerLoop(std::list<std::thread>::iterator self) {
  MutexLock lock(mutex);
  --starting;
  for (;;) {
    if (!queue.empty()) {
      auto work = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      runGuarded(work);
      work = nullptr;  // what it captured goes before the lock is taken again
      lock.lock();
      continue;
    }
    if (stopping || idle >= options.maxIdleWorkers) break;
    ++idle;
    bool retire = false;
    while (queue.empty() && !stopping && !retire) retire = !wake.waitFor(lock, options.workerIdle);
    --idle;
    if (retire && queue.empty() && !stopping) break;  // idle too long
  }
  // Detached as it goes: nothing is left to join (a thread never joined is a
  // leak to TSan), and after the unlock below it touches nothing of ours.
  self->detach();
  threads.erase(self);
  exited.notifyAll();
}

size_t Executor::Impl::drain() {
  if (options.mode != Mode::manual) return 0;
  size_t ran = 0;
  for (;;) {
    size_t before = ran;
    for (;;) {
      std::function<void()> work;
      {
        MutexLock lock(mutex);
        if (queue.empty()) break;
        work = std::move(queue.front());
        queue.pop_front();
      }
      work();
      ++ran;
    }
    ran += io.poll();
    if (ran == before) return ran;
  }
}

void Executor::Impl::advance(std::chrono::milliseconds by) {
  if (options.mode != Mode::manual) return;
  std::chrono::milliseconds target;
  {
    MutexLock lock(mutex);
    target = clock + by;
  }
  for (;;) {
    std::shared_ptr<Timer::State> due;
    {
      MutexLock lock(mutex);
      if (timers.empty() || timers.begin()->first > target) break;
      clock = timers.begin()->first;
      due = std::move(timers.begin()->second);
      timers.erase(timers.begin());
    }
    due->fire();
    drain();
  }
  {
    MutexLock lock(mutex);
    clock = target;
  }
  drain();
}

Timer Executor::Impl::after(std::chrono::milliseconds delay, std::function<void()> fn) {
  auto state = std::make_shared<Timer::State>();
  state->fn = std::move(fn);
  if (options.mode == Mode::manual) {
    MutexLock lock(mutex);
    timers.emplace(clock + std::max(delay, std::chrono::milliseconds(0)), state);
    return Timer(state);
  }
  state->io = &reactor();
  auto deadline = std::chrono::steady_clock::now() + delay;
  asio::post(io, [state, deadline] {
    if (state->done) return;
    state->timer = std::make_unique<asio::steady_timer>(state->io->get_executor(), deadline);
    state->timer->async_wait([state](const boost::system::error_code& error) {
      if (!error) state->fire();
    });
  });
  return Timer(state);
}

Executor::Executor() : Executor(Options{}) {}
Executor::Executor(Options options) : impl_(std::make_unique<Impl>(options)) {}
Executor::~Executor() = default;

Executor& Executor::shared() {
  static Executor* executor = new Executor();
  return *executor;
}

bool Executor::manual() const { return impl_->options.mode == Mode::manual; }
void Executor::post(std::function<void()> work) { impl_->post(std::move(work)); }
void Executor::prestart() { impl_->prestart(); }
void Executor::defer(std::function<void()> fn) { asio::post(impl_->reactor(), std::move(fn)); }
Timer Executor::after(std::chrono::milliseconds delay, std::function<void()> fn) {
  return impl_->after(delay, std::move(fn));
}
size_t Executor::drain() { return impl_->drain(); }
void Executor::advance(std::chrono::milliseconds by) { impl_->advance(by); }

size_t Executor::workers() const {
  MutexLock lock(impl_->mutex);
  return impl_->threads.size();
}

}  // namespace lathe::exec
