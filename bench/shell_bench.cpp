// shell_bench: the overhead of run_shell_command (build + execute through the
// Tool API: spawn in a new session, poll loop, output buffer, result text)
// against a bare posix_spawn of `bash -c` reading the same output from a pipe,
// for `true` and `seq 100000`; the same under the bubblewrap sandbox when it
// works here; and the time from cancel to the whole process tree gone (and to
// execute() returning); and the cost of the sealed run (the read-only sandbox
// for lines nobody approved) for ls, git status and grep -r in this
// repository. Prints the median, min and max of N runs.
//   build/bench/shell_bench [runs] [repository]
// Single-threaded except for the cancel runs.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tools/shell/shell_tools.h"
#include "tools/shell/background_processes.h"
#include "tools/shell/sandbox.h"
#include "tools/core/workspace.h"
#include "tests/support/subprocess.h"

namespace fs = std::filesystem;
using namespace lathe;
using namespace lathe::tools;
using Clock = std::chrono::steady_clock;

extern char** environ;

namespace {

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Stats {
  std::vector<double> ms;
  double median() const {
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    return sorted[sorted.size() / 2];
  }
  void print(const char* label) const {
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    std::printf("%-44s median %8.2f ms   min %8.2f   max %8.2f   (n=%zu)\n", label, median(), sorted.front(),
                sorted.back(), sorted.size());
  }
};

// posix_spawn bash -c, stdout+stderr into a pipe read to the end, waitpid.
size_t bareBash(const std::string& command) {
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) std::abort();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, out[1], 2);
  const char* argv[] = {"bash", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  if (::posix_spawnp(&pid, "bash", &actions, nullptr, const_cast<char* const*>(argv), environ) != 0) std::abort();
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  std::string output;
  char buf[65536];
  for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) > 0;) output.append(buf, static_cast<size_t>(n));
  ::close(out[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return output.size();
}

std::string argsFor(const std::string& command) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "command", command);
    w.EndObject();
  });
}

// Runs one call as the scheduler would after the person approved it (or,
// with Approval::judged, after the read-only judgement alone: sealed).
ToolResult runTool(const Tool& tool, const std::string& command, const CancelToken& cancel = CancelToken(),
                   Approval approval = Approval::person) {
  auto doc = json::parse(argsFor(command)).value();
  auto built = tool.build(doc);
  if (!built.invocation) {
    std::fprintf(stderr, "build failed: %s\n", built.error->message.c_str());
    std::exit(1);
  }
  built.invocation->setApproval(approval);
  return built.invocation->execute(cancel, [](const std::string&) {});
}

// The cost of the sealed run (read-only sandbox, set up per command) over
// the unsealed run, for read-only lines in this repository.
void sealedCost(const std::string& repo, int runs) {
  if (!shell::probeSealedNow()) {
    std::printf("sealed run: bubblewrap does not work here; skipped\n");
    return;
  }
  ToolContext context;
  context.workspace = std::make_shared<const Workspace>(Workspace::create(repo).value());
  auto tool = makeRunShellCommandTool(context, ShellSetup{});
  std::printf("\nsealed (read-only sandbox) against unsealed, in %s (%d runs each)\n", repo.c_str(), runs);
  for (const char* command : {"ls", "git status", "grep -r --exclude-dir=build --exclude-dir=.deps --exclude-dir=.git TODO ."}) {
    Stats plain, sealed;
    runTool(*tool, command);
    runTool(*tool, command, CancelToken(), Approval::judged);
    for (int i = 0; i < runs; ++i) {
      auto start = Clock::now();
      runTool(*tool, command);
      plain.ms.push_back(msSince(start));
      start = Clock::now();
      runTool(*tool, command, CancelToken(), Approval::judged);
      sealed.ms.push_back(msSince(start));
    }
    std::string label = std::string(command).substr(0, 30);
    plain.print(("unsealed: " + label).c_str());
    sealed.print(("sealed:   " + label).c_str());
    std::printf("%-44s %+8.2f ms\n", "  cost of the seal (median difference)", sealed.median() - plain.median());
  }
}


std::vector<pid_t> readPids(const fs::path& file) {
  std::vector<pid_t> pids;
  std::ifstream in(file);
  for (long pid; in >> pid;) pids.push_back(static_cast<pid_t>(pid));
  return pids;
}

void compare(const Tool& tool, const std::string& command, int runs, const char* bareLabel, const char* toolLabel) {
  Stats bare, viaTool;
  bareBash(command);
  runTool(tool, command);
  for (int i = 0; i < runs; ++i) {
    auto start = Clock::now();
    bareBash(command);
    bare.ms.push_back(msSince(start));
    start = Clock::now();
    runTool(tool, command);
    viaTool.ms.push_back(msSince(start));
  }
  bare.print(bareLabel);
  viaTool.print(toolLabel);
  std::printf("%-44s %+8.2f ms\n", "  overhead (median difference)", viaTool.median() - bare.median());
}

}  // namespace

int main(int argc, char** argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 50;
  const std::string repo = argc > 2 ? argv[2] : LATHE_SOURCE_DIR;
  std::string tmpl = (fs::temp_directory_path() / "lathe-shell-bench-XXXXXX").string();
  fs::path root = fs::canonical(::mkdtemp(tmpl.data()));
  fs::create_directories(root / "ws");

  ToolContext context;
  context.workspace = std::make_shared<const Workspace>(Workspace::create((root / "ws").string()).value());
  context.sessionDataDir = (root / "session").string();
  ShellSetup shell{{}, std::make_shared<shell::BackgroundProcesses>()};
  auto tool = makeRunShellCommandTool(context, shell);

  std::printf("run_shell_command against bare bash -c (%d runs each)\n", runs);
  compare(*tool, "true", runs, "bare bash -c true", "run_shell_command true");
  compare(*tool, "seq 100000", std::max(runs / 3, 5), "bare bash -c 'seq 100000' (589 KB)",
          "run_shell_command 'seq 100000'");

  if (shell::probeSandboxNow()) {
    ShellSetup sandboxed = shell;
    sandboxed.options.sandbox = true;
    auto sandboxTool = makeRunShellCommandTool(context, sandboxed);
    Stats sandbox;
    runTool(*sandboxTool, "true");
    for (int i = 0; i < runs; ++i) {
      auto start = Clock::now();
      runTool(*sandboxTool, "true");
      sandbox.ms.push_back(msSince(start));
    }
    sandbox.print("run_shell_command true, sandboxed (bwrap)");
  } else {
    std::printf("sandbox: bubblewrap does not work here; skipped\n");
  }

  // Cancel: a shell waiting on two background sleeps (grandchildren).
  Stats treeGone, returned;
  int cancelRuns = std::max(runs / 5, 5);
  fs::path pidFile = root / "ws" / "pids";
  for (int i = 0; i < cancelRuns; ++i) {
    fs::remove(pidFile);
    CancelToken cancel = CancelToken::create();
    std::thread runner(
        [&] { runTool(*tool, "sleep 100 & echo $! >> pids; sleep 100 & echo $! >> pids; wait", cancel); });
    while (readPids(pidFile).size() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::vector<pid_t> pids = readPids(pidFile);
    auto start = Clock::now();
    cancel.cancel();
    while (std::any_of(pids.begin(), pids.end(), lathe::testing::processAlive)) std::this_thread::sleep_for(std::chrono::microseconds(100));
    treeGone.ms.push_back(msSince(start));
    runner.join();
    returned.ms.push_back(msSince(start));
  }
  treeGone.print("cancel -> grandchildren gone");
  returned.print("cancel -> execute() returned");

  shell.background->killAll();
  fs::remove_all(root);
  sealedCost(repo, std::max(runs / 2, 5));
  return 0;
}
