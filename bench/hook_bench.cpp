// hook_bench: what a BeforeTool hook costs per call. A trivial hook script
// (reads its input, prints {}) run four ways: spawned alone (posix_spawn of
// `bash script`, the event's JSON written to its stdin, its stdout read to
// the end, waitpid); the same through `bash -c` (a hook is a command line,
// run as Gemini CLI runs it: bash then execs the script's bash); through the hook runner (tools/process: its own session,
// pipes and exit watched on the executor, the deadline a timer); and as a
// call sees it, through the session's call gate (SessionHooks::beforeCall:
// plan, input, run, judge, verdict). Prints the median, min and max of N
// runs of each, and the gate's median over the bare spawn.
//   build/bench/hook_bench [runs]
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/hooks/hook_runner.h"
#include "engine/hooks/session_hooks.h"

namespace fs = std::filesystem;
using namespace lathe;
using namespace lathe::engine;
using Clock = std::chrono::steady_clock;

extern char** environ;

namespace {

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

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
    std::printf("%-46s median %7.2f ms   min %7.2f   max %7.2f   (n=%zu)\n", label, median(), sorted.front(),
                sorted.back(), sorted.size());
  }
};

// The script spawned alone: input on a pipe to stdin, stdout read to its end.
// `viaShell`: as `bash -c "bash script"`, the command line a hook is.
void bareSpawn(const std::string& script, const std::string& input, bool viaShell = false) {
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) std::abort();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  const std::string line = "bash " + script;
  const char* plain[] = {"bash", script.c_str(), nullptr};
  const char* shell[] = {"bash", "-c", line.c_str(), nullptr};
  const char** argv = viaShell ? shell : plain;
  pid_t pid = -1;
  if (::posix_spawnp(&pid, "bash", &actions, nullptr, const_cast<char* const*>(argv), environ) != 0) std::abort();
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  if (::write(in[1], input.data(), input.size()) != static_cast<ssize_t>(input.size())) std::abort();
  ::close(in[1]);
  char buf[4096];
  while (::read(out[0], buf, sizeof buf) > 0) {
  }
  ::close(out[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

// Nobody to show anything to: the gate returns its notes with the verdict.
class NoEditor final : public EditorClient {
 public:
  void sendUpdate(const std::string&, const acp::SessionUpdate&) override {}
  Result<acp::RequestPermissionResponse> requestPermission(const acp::RequestPermissionRequest&,
                                                           const CancelToken&) override {
    return makeError(Errc::internal, "no editor");
  }
  acp::ClientCapabilities capabilities() const override { return {}; }
  Result<std::string> readTextFile(const std::string&, const std::string&, const CancelToken&) override {
    return makeError(Errc::internal, "no editor");
  }
  Status writeTextFile(const std::string&, const std::string&, const std::string&, const CancelToken&) override {
    return makeError(Errc::internal, "no editor");
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(3, std::atoi(argv[1])) : 50;
  const fs::path dir = fs::temp_directory_path() / ("lathe-hook-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string script = (dir / "hook.sh").string();
  std::ofstream(script) << "#!/bin/bash\ncat >/dev/null\necho '{}'\n";

  HookDefinition hook;
  hook.event = HookEvent::BeforeTool;
  hook.name = "trivial";
  hook.command = "bash " + script;
  const HookPlace place{"bench-session", dir.string()};
  const std::string input =
      R"({"session_id":"bench-session","transcript_path":"","cwd":")" + dir.string() +
      R"(","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00.000Z","tool_name":"read_file","tool_input":{"file_path":"a.txt"}})";

  NoEditor editor;
  SessionHooks hooks(SessionHooks::Setup{.sessionId = "bench-session",
                                         .workspaceRoot = dir.string(),
                                         .hooks = HookSet{{hook}, {}},
                                         .options = HookOptions{},
                                         .reopened = false},
                     editor);
  const std::string name = "read_file";
  const json::Raw args{R"({"file_path":"a.txt"})"};
  const std::string original;
  GatedCall call{name, args, nullptr, original};

  // Each way in a loop of its own, after two warm-up runs.
  auto measure = [&](auto&& once) {
    Stats stats;
    for (int i = 0; i < runs + 2; ++i) {
      auto t0 = Clock::now();
      if (!once()) {
        std::fprintf(stderr, "hook_bench: the hook did not answer\n");
        std::exit(1);
      }
      if (i >= 2) stats.ms.push_back(msSince(t0));
    }
    return stats;
  };
  Stats bare = measure([&] {
    bareSpawn(script, input);
    return true;
  });
  Stats shell = measure([&] {
    bareSpawn(script, input, true);
    return true;
  });
  Stats runner = measure([&] { return runHook(hook, input, place, CancelToken()).kind == HookResult::Kind::answered; });
  Stats gate = measure([&] { return hooks.beforeCall(call, CancelToken()).action == BeforeCall::Action::run; });
  std::printf("A BeforeTool hook (`bash hook.sh`: cat >/dev/null; echo '{}'), %d runs each:\n", runs);
  bare.print("the script spawned alone (posix_spawn)");
  shell.print("the same as the command line `bash -c`");
  runner.print("through the hook runner (tools/process)");
  gate.print("through the call gate (one BeforeTool hook)");
  std::printf("%-46s %+7.2f ms (target: within 2 ms)\n", "the gate over spawning its command line alone",
              gate.median() - shell.median());
  std::printf("%-46s %+7.2f ms (%+.2f of it the command line's own bash -c)\n", "the gate over spawning the script alone",
              gate.median() - bare.median(), shell.median() - bare.median());
  fs::remove_all(dir);
  return 0;
}
