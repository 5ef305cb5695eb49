// The process module (tools/process): environment building, pipes, sessions,
// whole-tree kills and the stdio channel that MCP servers will use. Spawns
// real sh processes.
#include <catch2/catch.hpp>

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <thread>

#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"
#include "tests/support/wait.h"
#include "tools/process/child_channel.h"
#include "tools/process/child_process.h"
#include "tools/process/environment.h"
#include "tools/process/process_tree.h"

using namespace lathe;
using namespace lathe::tools::process;
using namespace std::chrono_literals;
using lathe::testing::processAlive;
using lathe::testing::Notice;
using lathe::testing::pollUntil;
using lathe::testing::TempDir;

namespace {

// Everything readable from fd until end of file (blocking).
std::string readAll(int fd) {
  std::string text;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    text.append(buf, static_cast<size_t>(n));
  }
}

std::unique_ptr<ChildProcess> spawnOrFail(const ProcessSpec& spec) {
  auto child = ChildProcess::spawn(spec);
  REQUIRE(child);
  return std::move(child).value();
}

ProcessSpec shSpec(const std::string& script) {
  ProcessSpec spec;
  spec.argv = {"sh", "-c", script};
  return spec;
}

}  // namespace

TEST_CASE("process: the environment is the parent's with additions, overrides and removals") {
  const char* base[] = {"A=1", "B=2", "KEEP=yes", "PATH=/bin", nullptr};
  EnvironmentChanges changes;
  changes.set = {{"A", "one"}, {"NEW", "x"}, {"NEW", "y"}};
  changes.unset = {"B"};
  auto env = buildEnvironment(base, changes);
  CHECK(env == std::vector<std::string>{"KEEP=yes", "PATH=/bin", "A=one", "NEW=y"});

  changes = {};
  changes.startEmpty = true;
  changes.set = {{"ONLY", "this"}};
  CHECK(buildEnvironment(base, changes) == std::vector<std::string>{"ONLY=this"});
}

TEST_CASE("process: separate stdout and stderr pipes, exit code and resource usage") {
  ProcessSpec spec = shSpec("echo out; echo err >&2; exit 3");
  spec.output = OutputMode::separate;
  auto child = spawnOrFail(spec);
  CHECK(readAll(child->stdoutFd()) == "out\n");
  CHECK(readAll(child->stderrFd()) == "err\n");
  const ExitStatus& status = child->waitExit();
  CHECK(status.exitCode == 3);
  CHECK(status.signal == 0);
  CHECK(status.maxRssKb > 0);
  CHECK(status.describe() == "exit 3");
}

TEST_CASE("process: merged output keeps the order written, stdin from /dev/null by default") {
  auto child = spawnOrFail(shSpec("echo one; echo two >&2; echo three; cat; echo end"));
  CHECK(readAll(child->stdoutFd()) == "one\ntwo\nthree\nend\n");
  CHECK(child->waitExit().success());
}

TEST_CASE("process: stdin as a pipe, closing it ends a reader") {
  ProcessSpec spec = shSpec("while read l; do echo \"got $l\"; done; echo bye");
  spec.stdinMode = StdinMode::pipe;
  auto child = spawnOrFail(spec);
  REQUIRE(::write(child->stdinFd(), "a\nb\n", 4) == 4);
  child->closeStdin();
  CHECK(readAll(child->stdoutFd()) == "got a\ngot b\nbye\n");
  CHECK(child->waitExit().success());
}

TEST_CASE("process: environment changes and the working directory reach the child") {
  ::setenv("LATHE_PROCESS_TEST_DROP", "x", 1);
  ::setenv("LATHE_PROCESS_TEST_KEEP", "kept", 1);
  ProcessSpec spec = shSpec("echo \"$FOO|${LATHE_PROCESS_TEST_DROP:-unset}|$LATHE_PROCESS_TEST_KEEP|$(pwd)\"");
  spec.env.set = {{"FOO", "bar"}};
  spec.env.unset = {"LATHE_PROCESS_TEST_DROP"};
  spec.cwd = "/tmp";
  auto child = spawnOrFail(spec);
  CHECK(readAll(child->stdoutFd()) == "bar|unset|kept|/tmp\n");
  child->waitExit();
}

TEST_CASE("process: a new session by default, a new group on request") {
  auto child = spawnOrFail(shSpec("sleep 30"));
  CHECK(::getsid(child->pid()) == child->pid());
  CHECK(::getpgid(child->pid()) == child->pid());
  child->killTree(200ms);
  CHECK(child->reaped());
  CHECK(child->exit().signal == SIGTERM);

  ProcessSpec spec = shSpec("sleep 30");
  spec.grouping = Grouping::newGroup;
  auto grouped = spawnOrFail(spec);
  CHECK(::getpgid(grouped->pid()) == grouped->pid());
  CHECK(::getsid(grouped->pid()) == ::getsid(0));
  grouped->signalGroup(SIGKILL);
  CHECK(grouped->waitExit().signal == SIGKILL);
}

TEST_CASE("process: killTree ends descendants, even one that left the group") {
  TempDir dir;
  ProcessSpec spec = shSpec("sleep 31 & echo $! > a; setsid sleep 32 & echo $! > b; wait");
  spec.cwd = dir.path.string();
  auto child = spawnOrFail(spec);
  auto pidIn = [&](const char* name) {
    std::ifstream in(dir.path / name);
    long pid = 0;
    in >> pid;
    return static_cast<pid_t>(pid);
  };
  // Files the shell writes and its descendants in /proc cannot notify: polled.
  REQUIRE(pollUntil([&] { return pidIn("a") > 0 && pidIn("b") > 0; }, 10s));
  pid_t a = pidIn("a"), b = pidIn("b");
  REQUIRE(pollUntil([&] { return child->leftovers().size() >= 2; }, 5s));
  child->killTree(500ms);
  CHECK_FALSE(processAlive(a));
  CHECK_FALSE(processAlive(b));
  CHECK(processTree(child->pid()).empty());  // zombies nobody reaped yet may linger in the group
}

TEST_CASE("process: a missing program or directory is an error value") {
  ProcessSpec spec;
  spec.argv = {"/nonexistent/program"};
  auto missing = ChildProcess::spawn(spec);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("/nonexistent/program") != std::string::npos);
  spec.argv = {"true"};
  spec.cwd = "/nonexistent/dir";
  CHECK_FALSE(ChildProcess::spawn(spec));
  spec.argv.clear();
  CHECK_FALSE(ChildProcess::spawn(spec));
}

TEST_CASE("process: waitFor times out while the child runs") {
  auto child = spawnOrFail(shSpec("sleep 30"));
  CHECK_FALSE(child->waitFor(50ms));
  child->signalGroup(SIGTERM);
  auto status = child->waitFor(5s);
  REQUIRE(status);
  CHECK(status->signal == SIGTERM);
}

TEST_CASE("process: a child channel carries a line protocol, stderr arrives line by line") {
  Notice stderrSeen;  // guards lines
  std::vector<std::string> lines;
  ChildChannelOptions options;
  options.onStderrLine = [&](std::string_view line) { stderrSeen.update([&] { lines.emplace_back(line); }); };
  auto spawned = ChildChannel::spawn(shSpec("echo starting >&2; while read l; do echo \"{\\\"echo\\\":$l}\"; done; "
                                            "printf 'bye\\nno newline' >&2"),
                                     options);
  REQUIRE(spawned);
  ChildChannel& child = **spawned;
  REQUIRE(child.channel().write("1\n2\n"));
  std::string got;
  char buf[256];
  while (got.size() < 20) {
    size_t n = child.channel().read(buf, sizeof buf);
    REQUIRE(n > 0);
    got.append(buf, n);
  }
  CHECK(got == "{\"echo\":1}\n{\"echo\":2}\n");
  ExitStatus status = child.shutdown(5s);  // closing stdin ends the loop
  CHECK(status.success());
  CHECK(child.channel().read(buf, sizeof buf) == 0);
  REQUIRE(stderrSeen.waitFor([&] { return lines.size() == 3; }, 5s));  // no more come after these
  CHECK(lines == std::vector<std::string>{"starting", "bye", "no newline"});
  CHECK(child.stderrTail() == "starting\nbye\nno newline");
}

TEST_CASE("process: a child channel's output can be read on the executor instead of a thread") {
  std::mutex m;
  std::condition_variable changed;
  std::string got;
  bool ended = false;
  auto spawned = ChildChannel::spawn(shSpec("while read l; do echo \"<$l>\"; done"));
  REQUIRE(spawned);
  ChildChannel& child = **spawned;
  child.readOutput(
      [&](std::string_view chunk) {
        std::lock_guard lock(m);
        got += chunk;
        changed.notify_all();
      },
      [&] {
        std::lock_guard lock(m);
        ended = true;
        changed.notify_all();
      });
  char buf[16];
  CHECK(child.channel().read(buf, sizeof buf) == 0);  // the executor reads it now
  REQUIRE(child.channel().write("a\nb\n"));
  {
    std::unique_lock lock(m);
    REQUIRE(changed.wait_for(lock, 10s, [&] { return got == "<a>\n<b>\n"; }));
  }
  CHECK(child.shutdown(5s).success());
  std::unique_lock lock(m);
  REQUIRE(changed.wait_for(lock, 10s, [&] { return ended; }));
}

TEST_CASE("process: shutdown kills a child channel that ignores end of input") {
  auto spawned = ChildChannel::spawn(shSpec("trap '' TERM; sleep 33 & while :; do sleep 0.05; done"));
  REQUIRE(spawned);
  auto start = std::chrono::steady_clock::now();
  ExitStatus status = (*spawned)->shutdown(100ms);
  CHECK(std::chrono::steady_clock::now() - start < 5s);
  CHECK(status.signal == SIGKILL);
  CHECK(processTree((*spawned)->pid()).empty());
}
