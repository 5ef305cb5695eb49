// bubblewrap argv and the once-per-process probe. Any thread.
#include "tools/shell/sandbox.h"

#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <string_view>

#include "tools/process/process_runner.h"
#include "tools/shell/terminal_text.h"

namespace lathe::tools::shell {
namespace {

std::optional<std::string> findInPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!dirs.empty()) {
    size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    dirs.remove_prefix(colon == std::string_view::npos ? dirs.size() : colon + 1);
    if (dir.empty()) continue;
    std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

std::vector<std::string> sandboxPrefix(const SandboxPolicy& policy, const std::string& cwd) {
  std::vector<std::string> argv = {"bwrap", "--die-with-parent", "--unshare-pid"};
  if (!policy.network) argv.push_back("--unshare-net");
  for (const char* arg : {"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"}) {
    argv.emplace_back(arg);
  }
  for (const auto& root : policy.writableRoots) {  // after --tmpfs /tmp: roots may live in /tmp
    argv.insert(argv.end(), {"--bind", root, root});
  }
  argv.insert(argv.end(), {"--chdir", cwd.empty() ? std::string("/") : cwd});
  return argv;
}

}  // namespace

std::vector<std::string> sandboxArgv(const SandboxPolicy& policy, const std::string& cwd, const std::string& command) {
  std::vector<std::string> argv = sandboxPrefix(policy, cwd);
  argv.insert(argv.end(), {"--", "bash", "-c", command});
  return argv;
}

Status probeSandboxNow() {
  if (!findInPath("bwrap")) {
    return makeError(Errc::not_found,
                     "the sandbox needs bubblewrap (bwrap), which is not installed: install the bubblewrap package, "
                     "or turn the sandbox off (--sandbox / tools.sandbox)");
  }
  process::RunSpec spec;
  spec.argv = sandboxPrefix(SandboxPolicy{}, "/");
  spec.argv.insert(spec.argv.end(), {"--", "true"});
  spec.cwd = "/";
  auto runner = process::ProcessRunner::spawn(spec);
  if (!runner) return makeError(Errc::io, "the sandbox cannot start bubblewrap: " + runner.error().message);
  std::string output;
  process::WaitOptions options;
  options.inactivity = std::chrono::seconds(20);
  process::RunExit exit = (*runner)->waitForExit(CancelToken(), options, [&](std::string_view chunk) {
    if (output.size() < 2000) output.append(chunk);
  });
  if (exit.exitCode && *exit.exitCode == 0) return {};
  std::string why = terminalText(output);
  while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
  if (why.empty()) {
    why = exit.timedOut ? "it did not finish"
          : exit.signal ? "it was killed by signal " + std::to_string(exit.signal)
                        : "it exited with code " + std::to_string(exit.exitCode.value_or(-1));
  }
  return makeError(Errc::io, "bubblewrap cannot create the sandbox here (" + why +
                                 "); it needs user namespaces or root. Turn the sandbox off (--sandbox / "
                                 "tools.sandbox) or allow unprivileged user namespaces");
}

Status probeSandbox() {
  // A fact about this machine, the same for every session: probed once.
  static std::once_flag once;
  static std::optional<Status> result;
  std::call_once(once, [] { result = probeSandboxNow(); });
  return *result;
}

}  // namespace lathe::tools::shell
