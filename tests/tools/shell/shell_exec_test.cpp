// run_shell_command and its parts: process trees, output buffering and
// background commands (tests/tools/shell/shell_sandbox_test.cpp: bubblewrap). Spawns
// real bash processes.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "tools/shell/shell_tools.h"
#include "tools/shell/background_processes.h"
#include "tools/process/process_runner.h"
#include "tools/shell/sandbox.h"
#include "tools/shell/sealed_run.h"
#include "tools/core/untrusted_text.h"
#include "tools/core/workspace.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"
#include "tests/tools/shell/shell_fixture.h"

using namespace lathe;
using namespace lathe::tools;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

using namespace lathe::testing::shell_fixture;


TEST_CASE("shell: exit code, merged output order and the process group") {
  Fixture f;
  auto result = f.run("echo one; echo two >&2; echo three; exit 3");
  std::string llm = llmText(result);
  CHECK_FALSE(result.error);  // a failing command is a result the model reads, not a tool error
  CHECK(llm.find("Output: one\ntwo\nthree\n") != std::string::npos);
  CHECK(llm.find("Exit Code: 3") != std::string::npos);
  CHECK(std::regex_search(llm, std::regex("Process Group PGID: [0-9]+")));
  CHECK(displayText(result).find("[exit code 3]") != std::string::npos);

  auto ok = f.run("true");
  CHECK(llmText(ok).find("Output: (empty)") != std::string::npos);
  CHECK(llmText(ok).find("Exit Code: 0") != std::string::npos);
}

TEST_CASE("shell: a command ended by a signal reports it") {
  Fixture f;
  auto result = f.run("echo before; kill -TERM $$");
  std::string llm = llmText(result);
  CHECK_FALSE(result.error);
  CHECK(llm.find("before") != std::string::npos);
  CHECK(llm.find("Signal: 15 (SIGTERM)") != std::string::npos);
}

TEST_CASE("shell: the environment marks the agent, stdin is closed, there is no terminal") {
  Fixture f;
  auto env = f.run("echo \"$GEMINI_CLI $LATHE_AGENT $PAGER $GIT_PAGER\"");
  CHECK(llmText(env).find("Output: 1 1 cat cat\n") != std::string::npos);

  auto start = Clock::now();
  auto cat = f.run("cat; echo after-cat");
  CHECK(Clock::now() - start < 5s);
  CHECK(llmText(cat).find("after-cat") != std::string::npos);

  auto tty = f.run("exec 3</dev/tty && echo has-tty || echo no-tty");
  CHECK(llmText(tty).find("no-tty") != std::string::npos);
}

TEST_CASE("shell: dir_path runs inside the workspace and is confined to it") {
  Fixture f;
  fs::create_directories(f.root.path / "sub");
  auto inSub = f.runArgs(R"({"command": "pwd", "dir_path": "sub"})");
  CHECK(llmText(inSub).find("Output: " + (f.root.path / "sub").string()) != std::string::npos);

  auto atRoot = f.run("pwd");
  CHECK(llmText(atRoot).find("Output: " + f.root.path.string() + "\n") != std::string::npos);

  auto up = f.build(R"({"command": "pwd", "dir_path": ".."})");
  REQUIRE_FALSE(up.invocation);
  CHECK(up.error->type == ErrorType::path_not_in_workspace);
  auto outside = f.build(R"({"command": "pwd", "dir_path": "/etc"})");
  REQUIRE_FALSE(outside.invocation);
  CHECK(outside.error->type == ErrorType::path_not_in_workspace);

  auto missing = f.runArgs(R"({"command": "pwd", "dir_path": "nope"})");
  REQUIRE(missing.error);
  CHECK(missing.error->type == ErrorType::file_not_found);

  auto empty = f.build(R"({"command": "  "})");
  REQUIRE_FALSE(empty.invocation);
  CHECK(empty.error->type == ErrorType::invalid_params);
}

TEST_CASE("shell: description and locations") {
  Fixture f;
  fs::create_directories(f.root.path / "sub");
  auto built = f.build(R"({"command": "make test", "description": "run the tests", "dir_path": "sub"})");
  REQUIRE(built.invocation);
  CHECK(built.invocation->description() == "make test [in sub] (run the tests)");
  CHECK(built.invocation->locations().empty());  // names no file: never the folder it runs in
  std::ofstream(f.root.path / "sub" / "Makefile") << "test:\n";
  auto named = f.build(R"({"command": "make -f Makefile test > out.log", "dir_path": "sub"})");
  REQUIRE(named.invocation);
  auto locations = named.invocation->locations();
  REQUIRE(locations.size() == 2);
  CHECK(locations[0].path == (f.root.path / "sub" / "Makefile").string());
  CHECK(locations[1].path == (f.root.path / "sub" / "out.log").string());
  auto tool = makeRunShellCommandTool(f.context, f.shell);
  CHECK(tool->kind() == Kind::execute);
  CHECK(tool->info().canUpdateOutput);
}

TEST_CASE("shell: cancel kills the whole tree, grandchildren included") {
  Fixture f;
  // Two grandchildren in the group, one that left the session with setsid
  // (its parent subshell is still alive, so it is still in the tree).
  std::string command =
      "sleep 100 & echo $! >> pids; sleep 100 & echo $! >> pids; "
      "(setsid sleep 100 & echo $! >> pids; wait) & wait";
  CancelToken cancel = CancelToken::create();
  ToolResult result;
  std::thread runner([&] { result = f.run(command, cancel); });
  fs::path pidFile = f.root.path / "pids";
  REQUIRE(pollUntil([&] { return readPids(pidFile).size() == 3; }, 10s));
  auto pids = readPids(pidFile);
  for (pid_t pid : pids) CHECK(lathe::testing::processAlive(pid));

  auto start = Clock::now();
  cancel.cancel();
  runner.join();
  auto took = Clock::now() - start;
  CHECK(took < 5s);
  for (pid_t pid : pids) CHECK(pollUntil([&] { return !lathe::testing::processAlive(pid); }, 5s));
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::cancelled);
  CHECK(llmText(result).find("cancelled") != std::string::npos);
}

TEST_CASE("shell: SIGKILL follows SIGTERM for a tree that ignores it") {
  TempDir dir;
  process::RunSpec spec;
  spec.argv = process::bashArgv("trap '' TERM; sleep 100 & echo $! > pid; trap '' TERM; while :; do sleep 0.05; done");
  spec.cwd = dir.path.string();
  auto runner = process::ProcessRunner::spawn(spec);
  REQUIRE(runner);
  REQUIRE(pollUntil([&] { return !readPids(dir.path / "pid").empty(); }, 10s));
  pid_t child = readPids(dir.path / "pid").front();
  pid_t shellPid = (*runner)->pgid();
  auto start = Clock::now();
  (*runner)->killTree(300ms);
  auto took = Clock::now() - start;
  CHECK(took >= 250ms);
  CHECK(took < 3s);
  CHECK_FALSE(lathe::testing::processAlive(child));
  CHECK_FALSE(lathe::testing::processAlive(shellPid));
  CHECK((*runner)->exited());
  CHECK((*runner)->exit().signal == SIGKILL);
}

TEST_CASE("shell: inactivity ends a silent command and says so") {
  Fixture f;
  f.shell.options.inactivitySeconds = 1;
  auto start = Clock::now();
  auto result = f.run("echo started; sleep 100 & echo $! > pid; wait");
  auto took = Clock::now() - start;
  CHECK(took >= 900ms);
  CHECK(took < 6s);
  std::string llm = llmText(result);
  CHECK(llm.find("started") != std::string::npos);
  CHECK(llm.find("printed nothing for 1 seconds") != std::string::npos);
  CHECK_FALSE(result.error);
  auto pids = readPids(f.root.path / "pid");
  REQUIRE(pids.size() == 1);
  CHECK(pollUntil([&] { return !lathe::testing::processAlive(pids[0]); }, 5s));
}

TEST_CASE("shell: huge output is cut to head and tail with the whole saved to a file") {
  Fixture f;
  auto result = f.run("seq 1 100000; echo 'error: something broke in the middle'; seq 100001 200000");
  std::string llm = llmText(result);
  CHECK(llm.size() < 45'000);
  CHECK(llm.find("Output: 1\n2\n3\n") != std::string::npos);
  CHECK(llm.find("199999\n200000\n") != std::string::npos);
  CHECK(llm.find("150000\n") == std::string::npos);
  CHECK(llm.find("characters omitted") != std::string::npos);
  CHECK(llm.find("error: something broke in the middle") != std::string::npos);

  std::smatch match;
  REQUIRE(std::regex_search(llm, match, std::regex("is saved in (\\S+\\.txt)")));
  fs::path saved = match[1].str();
  CHECK(saved.string().rfind(f.context.sessionDataDir, 0) == 0);
  std::string expected;
  for (int i = 1; i <= 100000; ++i) expected += std::to_string(i) + "\n";
  expected += "error: something broke in the middle\n";
  for (int i = 100001; i <= 200000; ++i) expected += std::to_string(i) + "\n";
  CHECK(readFile(saved) == expected);
  CHECK(llm.find("full output (" ) != std::string::npos);
}

TEST_CASE("shell: live output arrives while the command runs") {
  Fixture f;
  std::vector<std::string> updates;
  std::vector<Clock::time_point> times;
  auto result = f.run("for i in 1 2 3 4 5 6 7 8; do echo line$i; sleep 0.15; done", CancelToken(),
                      [&](const std::string& text) {
                        updates.push_back(text);
                        times.push_back(Clock::now());
                      });
  CHECK(updates.size() >= 3);
  REQUIRE_FALSE(updates.empty());
  CHECK(updates.front().find("line1") != std::string::npos);
  for (size_t i = 1; i < times.size(); ++i) CHECK(times[i] - times[i - 1] >= 200ms);
  CHECK(llmText(result).find("line8") != std::string::npos);
}

TEST_CASE("shell: background commands start, list, read and end") {
  Fixture f;
  auto started = f.runArgs(R"({"command": "echo ready; for i in 1 2 3; do echo tick$i; done; sleep 100", "is_background": true})");
  REQUIRE_FALSE(started.error);
  std::smatch match;
  std::string text = llmText(started);
  REQUIRE(std::regex_search(text, match, std::regex("with id ([0-9]+)")));
  int64_t id = std::stoll(match[1].str());

  auto list = f.runTool(makeListBackgroundProcessesTool(f.shell), "{}");
  CHECK(llmText(list).find("[id " + std::to_string(id) + "] RUNNING") != std::string::npos);

  REQUIRE(pollUntil([&] { return f.shell.background->info(id)->outputBytes >= 24; }, 5s));
  auto read = f.runTool(makeReadBackgroundOutputTool(f.shell), "{\"id\": " + std::to_string(id) + "}");
  CHECK(llmText(read).find("ready\ntick1\ntick2\ntick3") != std::string::npos);
  auto tail = f.runTool(makeReadBackgroundOutputTool(f.shell), "{\"id\": " + std::to_string(id) + ", \"lines\": 2}");
  CHECK(llmText(tail).find("Showing the last 2 lines") != std::string::npos);
  CHECK(llmText(tail).find(std::string("):\n") + kUntrustedOutputNote + "\ntick2\ntick3") != std::string::npos);
  CHECK(displayText(tail).find("):\ntick2\ntick3") != std::string::npos);
  CHECK(llmText(tail).find("\nready\n") == std::string::npos);
  auto unknown = f.runTool(makeReadBackgroundOutputTool(f.shell), "{\"id\": 1}");
  CHECK(unknown.error);
  // Gemini CLI declares the parameter as pid; id stays as an alias.
  auto byPid = f.runTool(makeReadBackgroundOutputTool(f.shell), "{\"pid\": " + std::to_string(id) + "}");
  CHECK(llmText(byPid).find("ready\ntick1\ntick2\ntick3") != std::string::npos);
  auto neither = f.runTool(makeReadBackgroundOutputTool(f.shell), "{\"lines\": 2}");
  REQUIRE(neither.error);
  CHECK(neither.error->message.find("params.pid") != std::string::npos);

  REQUIRE(f.shell.background->kill(id).ok());
  CHECK_FALSE(lathe::testing::processAlive(static_cast<pid_t>(id)));
  auto after = f.runTool(makeListBackgroundProcessesTool(f.shell), "{}");
  CHECK(llmText(after).find("[id " + std::to_string(id) + "] KILLED") != std::string::npos);
}

TEST_CASE("shell: a background command that ends by itself reports its exit code") {
  Fixture f;
  auto started = f.shell.background->start({process::bashArgv("echo bye; exit 4"), f.root.path.string(), {}}, "x");
  REQUIRE(started);
  REQUIRE(pollUntil([&] { return !f.shell.background->info(started->id)->running; }, 5s));
  auto info = *f.shell.background->info(started->id);
  CHECK(info.exitCode == 4);
  CHECK_FALSE(info.killed);
  auto out = f.shell.background->readOutput(started->id, 10, 1000);
  REQUIRE(out);
  CHECK(out->text == "bye\n");
}

TEST_CASE("shell: killAll ends every background tree, and processes a command leaves running") {
  Fixture f;
  std::vector<pid_t> pids;
  for (int i = 0; i < 3; ++i) {
    auto r = f.runArgs(R"({"command": "sleep 100 & echo $! >> pids; wait", "is_background": true})");
    REQUIRE_FALSE(r.error);
  }
  // A foreground command that leaves a process behind: reported and adopted.
  auto left = f.run("sleep 100 & echo $! >> pids; echo done");
  std::string llm = llmText(left);
  CHECK(llm.find("Output: done") != std::string::npos);
  CHECK(llm.find("Background PIDs: ") != std::string::npos);
  CHECK(f.shell.background->list().size() == 4);

  REQUIRE(pollUntil([&] { return readPids(f.root.path / "pids").size() == 4; }, 5s));
  pids = readPids(f.root.path / "pids");
  for (pid_t pid : pids) CHECK(lathe::testing::processAlive(pid));
  auto start = Clock::now();
  f.shell.background->killAll();
  CHECK(Clock::now() - start < 5s);
  for (pid_t pid : pids) CHECK(pollUntil([&] { return !lathe::testing::processAlive(pid); }, 5s));
  CHECK(f.shell.background->list().empty());
  auto refused = f.runArgs(R"({"command": "true", "is_background": true})");
  CHECK(refused.error);
}

TEST_CASE("shell: confirmation details come from the parse") {
  Fixture f;
  auto status = f.build(R"({"command": "git status && ls -la"})");
  REQUIRE(status.invocation);
  auto details = status.invocation->shouldConfirmExecute(CancelToken());
  REQUIRE(details);
  REQUIRE(details->has_value());
  auto* exec = std::get_if<ExecConfirmation>(&**details);
  REQUIRE(exec);
  CHECK(exec->command == "git status && ls -la");
  CHECK(exec->rootCommands == std::vector<std::string>{"git", "ls"});
  REQUIRE(exec->commands.size() == 2);
  CHECK(exec->commands[0] == std::vector<std::string>{"git", "status"});
  CHECK(exec->readOnly);

  auto writes = f.build(R"({"command": "rm -rf build"})");
  auto writeDetails = writes.invocation->shouldConfirmExecute(CancelToken());
  REQUIRE(writeDetails);
  auto* writeExec = std::get_if<ExecConfirmation>(&**writeDetails);
  REQUIRE(writeExec);
  CHECK(writeExec->rootCommands == std::vector<std::string>{"rm"});
  CHECK_FALSE(writeExec->readOnly);

  auto dynamic = f.build(R"({"command": "eval \"$CMD\""})");
  auto dynamicDetails = dynamic.invocation->shouldConfirmExecute(CancelToken());
  REQUIRE(dynamicDetails);
  auto* dynamicExec = std::get_if<ExecConfirmation>(&**dynamicDetails);
  REQUIRE(dynamicExec);
  CHECK(dynamicExec->rootCommands.empty());
  CHECK_FALSE(dynamicExec->understood);
  CHECK_FALSE(dynamicExec->readOnly);
}

TEST_CASE("shell: read_background_output waits delay_ms before reading, and a cancel ends the wait") {
  Fixture f;
  // The second line is printed only once a file appears, so nothing races the first read.
  auto started = f.runArgs(R"({"command": "echo first; while [ ! -e go ]; do sleep 0.05; done; echo after-go; sleep 100", "is_background": true})");
  REQUIRE_FALSE(started.error);
  std::smatch match;
  std::string text = llmText(started);
  REQUIRE(std::regex_search(text, match, std::regex("with id ([0-9]+)")));
  const std::string id = match[1].str();
  REQUIRE(pollUntil([&] { return f.shell.background->info(std::stoll(id))->outputBytes >= 6; }, 5s));

  // Without a delay: read at once. With one: the output printed meanwhile is there.
  auto now = f.runTool(makeReadBackgroundOutputTool(f.shell), "{\"pid\": " + id + "}");
  CHECK(llmText(now).find("first\nafter-go") == std::string::npos);  // (the command line itself is shown too)
  // "go" is written once the read sits in its delay (a condition-variable wait).
  const pid_t reader = ::gettid();
  bool inDelay = false;
  std::thread go([&] {
    inDelay = waitUntilBlocked(reader, [](long call) { return call == SYS_futex; });
    f.root.write("go", "");
  });
  auto delayed = f.runTool(makeReadBackgroundOutputTool(f.shell), "{\"pid\": " + id + ", \"delay_ms\": 5000}");
  go.join();
  CHECK(inDelay);
  CHECK(llmText(delayed).find("first\nafter-go") != std::string::npos);

  // A cancelled turn does not sit out the delay: the read ends as cancelled.
  auto tool = makeReadBackgroundOutputTool(f.shell);
  auto built = tool->build(json::parse("{\"pid\": " + id + ", \"delay_ms\": 30000}").value());
  REQUIRE(built.invocation);
  auto token = CancelToken::create();
  bool waiting = false;
  std::thread cancel([&] {
    waiting = waitUntilBlocked(reader, [](long call) { return call == SYS_futex; });
    token.cancel();
  });
  auto result = built.invocation->execute(token, [](const std::string&) {});
  cancel.join();
  CHECK(waiting);
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::cancelled);
  REQUIRE(f.shell.background->kill(std::stoll(id)).ok());
}
