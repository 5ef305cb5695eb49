// Waiting for children on the executor (tools/process): a command's output,
// exit, inactivity and ticks seen on the reactor (with a manual clock where
// the test decides when a deadline passes), cancel while output streams,
// captured runs with big input and output both ways, and background commands
// that hold no thread each. Spawns real sh processes.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "protocol/exec/executor.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"
#include "tests/support/wait.h"
#include "tools/process/captured_run.h"
#include "tools/process/process_runner.h"
#include "tools/process/process_tree.h"
#include "tools/shell/background_processes.h"

using namespace lathe;
using namespace lathe::tools;
using namespace lathe::tools::process;
using namespace std::chrono_literals;
using lathe::exec::Executor;
using lathe::testing::Notice;
using lathe::testing::pollUntil;
using lathe::testing::processAlive;
using lathe::testing::TempDir;

namespace {

std::unique_ptr<ProcessRunner> spawnSh(const std::string& script, Executor& executor = Executor::shared()) {
  RunSpec spec;
  spec.argv = {"sh", "-c", script};
  auto runner = ProcessRunner::spawn(spec, executor);
  REQUIRE(runner);
  return std::move(runner).value();
}

size_t threadCount() {
  size_t count = 0;
  if (DIR* tasks = ::opendir("/proc/self/task")) {
    while (dirent* entry = ::readdir(tasks)) count += entry->d_name[0] != '.';
    ::closedir(tasks);
  }
  return count;
}

}  // namespace

TEST_CASE("process wait: inactivity is a timer on the manual clock, moved on by each output") {
  Executor executor({Executor::Mode::manual});
  TempDir dir;
  std::string fifo = (dir.path / "more").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto runner = spawnSh("echo a; cat '" + fifo + "'; exec sleep 30", executor);
  std::string got;
  bool inactive = false;
  WatchCallbacks callbacks;
  callbacks.onOutput = [&](std::string_view chunk) { got += chunk; };
  callbacks.onInactive = [&] { inactive = true; };
  runner->watch({1000ms, 0ms}, std::move(callbacks));
  // The child writes when it runs: drained until its output is here.
  REQUIRE(pollUntil([&] { return executor.drain(), got == "a\n"; }));
  executor.advance(600ms);
  CHECK_FALSE(inactive);
  {
    int fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, "b\n", 2) == 2);
    ::close(fd);
  }
  REQUIRE(pollUntil([&] { return executor.drain(), got == "a\nb\n"; }));
  executor.advance(600ms);  // 1200 ms after "a", 600 after "b"
  CHECK_FALSE(inactive);
  executor.advance(399ms);
  CHECK_FALSE(inactive);
  executor.advance(1ms);
  CHECK(inactive);
  runner->unwatch();
  runner->killTree(200ms);
  CHECK(runner->exited());
}

TEST_CASE("process wait: the exit is told after the output written before it") {
  Executor executor({Executor::Mode::manual});
  auto runner = spawnSh("printf 'last words'; exit 3", executor);
  std::string got, atExit;
  bool exited = false;
  WatchCallbacks callbacks;
  callbacks.onOutput = [&](std::string_view chunk) { got += chunk; };
  callbacks.onExit = [&] {
    exited = true;
    atExit = got;
  };
  runner->watch({}, std::move(callbacks));
  REQUIRE(pollUntil([&] { return executor.drain(), exited; }));
  CHECK(atExit == "last words");
  runner->unwatch();
  CHECK(runner->reapIfExited());
  CHECK(runner->exit().exitCode == 3);
}

TEST_CASE("process wait: ticks come on the manual clock until unwatched") {
  Executor executor({Executor::Mode::manual});
  auto runner = spawnSh("exec sleep 30", executor);
  int ticks = 0;
  WatchCallbacks callbacks;
  callbacks.onTick = [&] { ++ticks; };
  runner->watch({0ms, 100ms}, std::move(callbacks));
  executor.advance(99ms);
  CHECK(ticks == 0);
  executor.advance(1ms);
  CHECK(ticks == 1);
  executor.advance(250ms);
  CHECK(ticks == 3);
  runner->unwatch();
  executor.advance(1000ms);
  CHECK(ticks == 3);
  runner->killTree(200ms);
}

TEST_CASE("process wait: a silent command is ended for inactivity, its tree gone") {
  auto runner = spawnSh("echo hi; sleep 30 & exec sleep 30");
  std::string got;
  WaitOptions options;
  options.inactivity = 200ms;
  options.killGrace = 200ms;
  RunExit exit = runner->waitForExit(CancelToken::create(), options, [&](std::string_view chunk) { got += chunk; });
  CHECK(exit.timedOut);
  CHECK_FALSE(exit.cancelled);
  CHECK(got == "hi\n");
  CHECK(processTree(runner->pgid()).empty());  // zombies that init has yet to reap aside
}

TEST_CASE("process wait: cancel while output streams ends the tree at once") {
  auto runner = spawnSh("exec yes 'output that never ends'");
  const pid_t pgid = runner->pgid();
  CancelToken cancel = CancelToken::create();
  Notice notice;
  size_t bytes = 0;
  std::thread canceller([&] {
    notice.waitFor([&] { return bytes > 1024 * 1024; });
    cancel.cancel();
  });
  WaitOptions options;
  options.killGrace = 200ms;
  RunExit exit = runner->waitForExit(cancel, options, [&](std::string_view chunk) {
    notice.update([&] { bytes += chunk.size(); });
  });
  canceller.join();
  CHECK(exit.cancelled);
  CHECK(bytes > 1024 * 1024);
  CHECK(runner->exited());
  CHECK_FALSE(processAlive(pgid));
}

TEST_CASE("captured runs: big input and big output both ways do not deadlock") {
  CapturedRunSpec spec;
  spec.argv = {"sh", "-c", "tee /dev/stderr"};  // echoes all of stdin to both outputs as it reads
  spec.input.resize(8 * 1024 * 1024);
  for (size_t i = 0; i < spec.input.size(); ++i) spec.input[i] = static_cast<char>('a' + i % 26);
  spec.maxOutputBytes = 16 * 1024 * 1024;
  auto run = runCaptured(spec, CancelToken::create());
  REQUIRE(run);
  CHECK(run->ok());
  CHECK(run->out.size() == spec.input.size());
  CHECK(run->out == spec.input);
  CHECK(run->err == spec.input);
}

TEST_CASE("captured runs: cancel while input is still being written ends the command") {
  TempDir dir;
  std::string marker = (dir.path / "started").string();
  CapturedRunSpec spec;
  spec.argv = {"sh", "-c", "touch '" + marker + "'; exec sleep 30"};  // reads none of it
  spec.input = std::string(1024 * 1024, 'x');
  CancelToken cancel = CancelToken::create();
  std::thread canceller([&] {
    // Another process's file: nothing can notify the test of it.
    pollUntil([&] { return ::access(marker.c_str(), F_OK) == 0; });
    cancel.cancel();
  });
  auto run = runCaptured(spec, cancel);
  canceller.join();
  REQUIRE(run);
  CHECK(run->cancelled);
  CHECK_FALSE(run->ok());
  CHECK(run->exit.signal != 0);
}

TEST_CASE("background commands: each holds no thread of its own") {
  shell::BackgroundProcesses background;
  RunSpec spec;
  spec.argv = bashArgv("exec sleep 30");
  REQUIRE(background.start(spec, "sleep 30"));  // the reactor runs from here on
  const size_t before = threadCount();
  for (int i = 0; i < 8; ++i) REQUIRE(background.start(spec, "sleep 30"));
  CHECK(threadCount() == before);
  auto listed = background.list();
  CHECK(listed.size() == 9);
  for (const auto& info : listed) CHECK(info.running);
  background.killAll();
  for (const auto& info : listed) CHECK_FALSE(processAlive(static_cast<pid_t>(info.id)));
}
