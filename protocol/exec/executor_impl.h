// The executor's insides, for protocol/exec's .cpp files only (it includes
// Asio; nothing above protocol/exec may include it).
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "protocol/base/thread_annotations.h"
#include "protocol/exec/executor.h"

namespace lathe::exec {

namespace asio = boost::asio;

struct Executor::Impl {
  explicit Impl(Options options);
  ~Impl();

  // The io_context, with its reactor thread started on first use (threaded
  // mode), so that a process that never waits on anything has no reactor.
  asio::io_context& reactor();

  void post(std::function<void()> work);
  void prestart();
  size_t drain();
  void advance(std::chrono::milliseconds by);
  Timer after(std::chrono::milliseconds delay, std::function<void()> fn);

  const Options options;
  asio::io_context io;
  asio::executor_work_guard<asio::io_context::executor_type> keepRunning;
  std::once_flag reactorStarted;
  std::thread reactorThread;

  // Workers (threaded mode).
  void startWorker() REQUIRES(mutex);
  void workerLoop(std::list<std::thread>::iterator self) EXCLUDES(mutex);
  mutable Mutex mutex;
  CondVar wake;
  CondVar exited;  // a worker retired
  std::deque<std::function<void()>> queue GUARDED_BY(mutex);  // also manual mode's queue
  size_t idle GUARDED_BY(mutex) = 0;
  size_t starting GUARDED_BY(mutex) = 0;  // started, not yet looking at the queue
  bool stopping GUARDED_BY(mutex) = false;
  std::list<std::thread> threads GUARDED_BY(mutex);  // running; each detaches itself as it retires

  // Manual mode's clock and timers, by deadline then creation.
  std::chrono::milliseconds clock GUARDED_BY(mutex){0};
  std::multimap<std::chrono::milliseconds, std::shared_ptr<Timer::State>> timers GUARDED_BY(mutex);
};

}  // namespace lathe::exec
