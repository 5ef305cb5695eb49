// Tests of the Subprocess helper (test support code).
#include <catch2/catch.hpp>

#include <signal.h>

#include "tests/support/subprocess.h"

using namespace lathe::testing;
using namespace std::chrono_literals;

TEST_CASE("a child echoes stdin lines, writes stderr and exits with its code") {
  auto spawned = Subprocess::spawn({"sh", "-c", "while read l; do echo \"got $l\"; done; echo bye >&2; exit 3"});
  REQUIRE(spawned);
  Subprocess& child = **spawned;
  CHECK(child.writeStdin("one\ntwo\n"));
  CHECK(child.readLine(5s) == "got one");
  CHECK(child.readLine(5s) == "got two");
  child.closeStdin();
  auto status = child.wait(5s);
  REQUIRE(status);
  CHECK(status->exitCode == 3);
  CHECK(status->maxRssKb > 0);
  CHECK_FALSE(child.readLine(100ms));
  CHECK(child.stdoutEnded());
  CHECK(child.drainStderr() == "bye\n");  // wait() returned once stderr ended too
  CHECK(child.stderrText().empty());
}

TEST_CASE("environment additions, removals and the working directory apply") {
  ::setenv("LATHE_SUBPROCESS_TEST_DROP", "x", 1);
  SubprocessOptions options;
  options.argv = {"sh", "-c", "echo \"$FOO|${LATHE_SUBPROCESS_TEST_DROP:-unset}|$(pwd)\""};
  options.env = {{"FOO", "bar"}};
  options.unsetEnv = {"LATHE_SUBPROCESS_TEST_DROP"};
  options.cwd = "/tmp";
  auto child = Subprocess::spawn(options);
  REQUIRE(child);
  CHECK((*child)->readLine(5s) == "bar|unset|/tmp");
  REQUIRE((*child)->wait(5s));
}

TEST_CASE("kill ends the process group, a timeout leaves the child running") {
  auto child = Subprocess::spawn({"sh", "-c", "sleep 30 & sleep 30"});
  REQUIRE(child);
  CHECK_FALSE((*child)->wait(50ms));
  (*child)->kill(SIGTERM);
  auto status = (*child)->wait(5s);
  REQUIRE(status);
  CHECK(status->signal == SIGTERM);
}

TEST_CASE("spawning a missing program fails cleanly") {
  CHECK_FALSE(Subprocess::spawn({"/nonexistent/program"}));
}
