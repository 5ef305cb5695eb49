// The executor: manual mode (deterministic: work runs when drained, timers on
// a manual clock) and threaded mode (workers, reactor timers, pipes, signals).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <future>
#include <latch>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "protocol/exec/executor.h"
#include "protocol/exec/fd_watch.h"
#include "protocol/exec/pipe_reader.h"
#include "protocol/exec/pipe_writer.h"
#include "protocol/exec/signal_watcher.h"
#include "protocol/exec/task_group.h"

using namespace std::chrono_literals;
using lathe::CancelToken;
using lathe::exec::Executor;
using lathe::exec::FdWatch;
using lathe::exec::LineSplitter;
using lathe::exec::PipeReader;
using lathe::exec::PipeWriter;
using lathe::exec::SignalWatcher;
using lathe::exec::TaskGroup;
using lathe::exec::Timer;

namespace {

// A pipe's two ends; the reading end goes to a PipeReader.
struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() {
    if (write >= 0) ::close(write);
  }
  void put(std::string_view text) { REQUIRE(::write(write, text.data(), text.size()) == ssize_t(text.size())); }
  void closeWrite() {
    ::close(write);
    write = -1;
  }
};

}  // namespace

TEST_CASE("manual mode: posted work runs only when the test drains") {
  Executor executor({Executor::Mode::manual});
  std::vector<int> ran;
  executor.post([&] { ran.push_back(1); });
  executor.post([&] { executor.post([&] { ran.push_back(3); }); ran.push_back(2); });
  CHECK(ran.empty());
  CHECK(executor.drain() == 3);
  CHECK(ran == std::vector<int>{1, 2, 3});
  CHECK(executor.drain() == 0);
}

TEST_CASE("manual mode: timers fire in deadline order when the clock reaches them") {
  Executor executor({Executor::Mode::manual});
  std::vector<std::string> fired;
  Timer late = executor.after(200ms, [&] { fired.push_back("late"); });
  Timer early = executor.after(100ms, [&] { fired.push_back("early"); });
  Timer chained;
  Timer first = executor.after(50ms, [&] {
    fired.push_back("first");
    chained = executor.after(20ms, [&] { fired.push_back("chained"); });
  });
  executor.advance(99ms);
  CHECK(fired == std::vector<std::string>{"first", "chained"});
  CHECK(early.pending());
  executor.advance(1ms);
  CHECK(fired.back() == "early");
  CHECK_FALSE(early.pending());
  late.cancel();
  CHECK_FALSE(late.pending());
  executor.advance(1000ms);
  CHECK(fired.size() == 3);
}

TEST_CASE("manual mode: a destroyed timer never fires") {
  Executor executor({Executor::Mode::manual});
  int calls = 0;
  { Timer timer = executor.after(10ms, [&] { ++calls; }); }
  Timer kept = executor.after(10ms, [&] { ++calls; });
  executor.advance(10ms);
  CHECK(calls == 1);
}

TEST_CASE("manual mode: task groups hand out tokens that cancelAll cancels") {
  Executor executor({Executor::Mode::manual});
  TaskGroup group(executor);
  std::vector<bool> seen;
  auto first = group.post([&](const CancelToken& token) { seen.push_back(token.cancelled()); });
  REQUIRE(first);
  CHECK(group.active() == 1);
  group.cancelAll();
  CHECK(first->cancelled());
  auto second = group.post([&](const CancelToken& token) { seen.push_back(token.cancelled()); });
  group.waitIdle();
  CHECK(seen == std::vector<bool>{true, false});
  CHECK(group.active() == 0);
  group.join();
  CHECK_FALSE(group.post([](const CancelToken&) {}));
}

TEST_CASE("manual mode: a pipe's chunks and end arrive when drained") {
  Executor executor({Executor::Mode::manual});
  Pipe pipe;
  std::string got;
  bool ended = false;
  PipeReader reader = PipeReader::start(executor, pipe.read, [&](std::string_view chunk) { got += chunk; },
                                        [&] { ended = true; });
  pipe.put("hello ");
  CHECK(got.empty());
  executor.drain();
  CHECK(got == "hello ");
  pipe.put("world");
  pipe.closeWrite();
  executor.drain();
  CHECK(got == "hello world");
  CHECK(ended);
  CHECK_FALSE(reader.reading());
}

TEST_CASE("manual mode: a stopped pipe reader calls nothing more") {
  Executor executor({Executor::Mode::manual});
  Pipe pipe;
  int calls = 0;
  PipeReader reader = PipeReader::start(executor, pipe.read, [&](std::string_view) { ++calls; }, [&] { ++calls; });
  reader.stop();
  pipe.put("ignored");
  pipe.closeWrite();
  executor.drain();
  CHECK(calls == 0);
}

TEST_CASE("manual mode: a pipe writer writes as the reader takes, then closes the pipe") {
  Executor executor({Executor::Mode::manual});
  Pipe pipe;
  ::fcntl(pipe.read, F_SETFL, O_NONBLOCK);
  const std::string bytes(1024 * 1024, 'x');  // many times a pipe's buffer
  std::optional<bool> done;
  PipeWriter writer = PipeWriter::start(executor, std::exchange(pipe.write, -1), bytes, [&](bool all) { done = all; });
  std::string got;
  bool atEnd = false;
  while (!atEnd) {
    executor.drain();  // writes what fits, then waits for room
    char buffer[65536];
    ssize_t n = ::read(pipe.read, buffer, sizeof buffer);
    if (n > 0) got.append(buffer, static_cast<size_t>(n));
    atEnd = n == 0;
    REQUIRE((n > 0 || n == 0 || errno == EAGAIN));
  }
  CHECK(got == bytes);
  CHECK(done == true);
  ::close(pipe.read);
}

TEST_CASE("manual mode: a pipe writer whose reader is gone ends early, without SIGPIPE") {
  Executor executor({Executor::Mode::manual});
  Pipe pipe;
  ::close(pipe.read);
  std::optional<bool> done;
  PipeWriter writer = PipeWriter::start(executor, std::exchange(pipe.write, -1), "lost", [&](bool all) { done = all; });
  executor.drain();
  CHECK(done == false);  // and this process is still here
}

TEST_CASE("manual mode: a descriptor watch tells once, when it is ready") {
  Executor executor({Executor::Mode::manual});
  Pipe pipe;
  int told = 0;
  FdWatch watch = FdWatch::start(executor, pipe.read, FdWatch::Ready::read, [&] { ++told; });
  REQUIRE(watch.watching());
  executor.drain();
  CHECK(told == 0);
  pipe.put("x");
  executor.drain();
  CHECK(told == 1);
  pipe.put("y");
  executor.drain();
  CHECK(told == 1);
  ::close(pipe.read);  // the watch holds its own copy
}

TEST_CASE("lines are split, a long one cut, the last one counted at the end") {
  std::vector<std::string> lines;
  LineSplitter split(5, [&](std::string_view line) { lines.emplace_back(line); });
  split.feed("ab\ncd");
  split.feed("ef\n0123456789\n\nx");
  CHECK(lines == std::vector<std::string>{"ab", "cdef", "01234", ""});
  split.finish();
  CHECK(lines.back() == "x");
  split.finish();
  CHECK(lines.size() == 5);
}

TEST_CASE("threaded mode: work runs on a worker, and idle workers are reused") {
  Executor executor;
  for (int i = 0; i < 20; ++i) {
    std::promise<std::thread::id> ran;
    executor.post([&] { ran.set_value(std::this_thread::get_id()); });
    auto future = ran.get_future();
    REQUIRE(future.wait_for(10s) == std::future_status::ready);
    CHECK(future.get() != std::this_thread::get_id());
  }
  // One after another: a worker may not be back to idle when the next comes,
  // but without reuse there would be twenty.
  CHECK(executor.workers() <= 10);
}

TEST_CASE("threaded mode: blocking work gets a worker each, created on demand") {
  Executor executor;
  std::latch allStarted(3);
  std::promise<void> release;
  std::shared_future<void> go = release.get_future().share();
  TaskGroup group(executor);
  for (int i = 0; i < 3; ++i) {
    group.post([&, go](const CancelToken&) {
      allStarted.count_down();
      go.wait();
    });
  }
  allStarted.wait();  // would never return with fewer than three workers
  CHECK(executor.workers() == 3);
  release.set_value();
  group.waitIdle();
  CHECK(group.active() == 0);
}

TEST_CASE("threaded mode: a prestarted worker takes the next post, even before it is idle") {
  Executor executor;
  executor.prestart();
  executor.prestart();  // one is on its way already: no second
  CHECK(executor.workers() == 1);
  std::promise<void> ran;
  executor.post([&] { ran.set_value(); });  // at once: the prestarted one may still be starting
  REQUIRE(ran.get_future().wait_for(10s) == std::future_status::ready);
  CHECK(executor.workers() == 1);
}

TEST_CASE("threaded mode: idle workers retire") {
  Executor::Options options;
  options.workerIdle = 1ms;
  Executor executor(options);
  std::promise<void> ran;
  executor.post([&] { ran.set_value(); });
  ran.get_future().wait();
  // Looks again on a timer until the worker is gone (or ten seconds passed).
  std::promise<size_t> count;
  int looks = 0;
  Timer check;
  std::function<void()> look = [&] {
    size_t now = executor.workers();
    if (now == 0 || ++looks == 1000) return count.set_value(now);
    check = executor.after(10ms, look);
  };
  executor.defer(look);
  auto future = count.get_future();
  REQUIRE(future.wait_for(20s) == std::future_status::ready);
  CHECK(future.get() == 0);
}

TEST_CASE("threaded mode: cancelAll reaches a running task, waitIdle waits for it") {
  Executor executor;
  TaskGroup group(executor);
  std::promise<void> started;
  std::atomic<bool> sawCancel{false};
  group.post([&](const CancelToken& token) {
    std::promise<void> cancelled;
    auto reg = token.onCancel([&] { cancelled.set_value(); });
    started.set_value();
    cancelled.get_future().wait();
    sawCancel = true;
  });
  started.get_future().wait();
  group.cancelAll();
  group.waitIdle();
  CHECK(sawCancel);
}

TEST_CASE("threaded mode: a timer fires on the reactor, a cancelled one never does") {
  Executor executor;
  std::promise<std::thread::id> fired;
  std::atomic<int> cancelledCalls{0};
  Timer never = executor.after(1ms, [&] { ++cancelledCalls; });
  never.cancel();
  Timer timer = executor.after(1ms, [&] { fired.set_value(std::this_thread::get_id()); });
  auto future = fired.get_future();
  REQUIRE(future.wait_for(10s) == std::future_status::ready);
  CHECK(future.get() != std::this_thread::get_id());
  CHECK_FALSE(timer.pending());
  CHECK(cancelledCalls == 0);
}

TEST_CASE("threaded mode: a timer may cancel itself from its callback") {
  Executor executor;
  std::promise<void> done;
  Timer timer;
  std::mutex mutex;
  {
    std::lock_guard lock(mutex);
    timer = executor.after(1ms, [&] {
      std::lock_guard inner(mutex);
      timer.cancel();
      done.set_value();
    });
  }
  REQUIRE(done.get_future().wait_for(10s) == std::future_status::ready);
}

TEST_CASE("threaded mode: pipe lines arrive on the reactor, then the end") {
  Executor executor;
  Pipe pipe;
  std::vector<std::string> lines;
  std::promise<void> ended;
  LineSplitter split(100, [&](std::string_view line) { lines.emplace_back(line); });
  PipeReader reader = PipeReader::start(executor, pipe.read, [&](std::string_view chunk) { split.feed(chunk); },
                                        [&] {
                                          split.finish();
                                          ended.set_value();
                                        });
  pipe.put("one\ntw");
  pipe.put("o\nthree");
  pipe.closeWrite();
  REQUIRE(ended.get_future().wait_for(10s) == std::future_status::ready);
  CHECK(lines == std::vector<std::string>{"one", "two", "three"});
}

TEST_CASE("threaded mode: SIGTERM reaches a signal watcher") {
  Executor executor;
  std::promise<int> caught;
  std::atomic<bool> once{false};
  SignalWatcher watcher(executor, {SIGTERM, SIGINT}, [&](int signal) {
    if (!once.exchange(true)) caught.set_value(signal);
  });
  REQUIRE(::kill(::getpid(), SIGTERM) == 0);
  auto future = caught.get_future();
  REQUIRE(future.wait_for(10s) == std::future_status::ready);
  CHECK(future.get() == SIGTERM);
}
