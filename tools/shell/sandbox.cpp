// bubblewrap argv and the once-per-process probe. Any thread.
#include "tools/shell/sandbox.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <string_view>

#include "tools/process/process_runner.h"
#include "tools/shell/terminal_text.h"

namespace lathe::tools::shell {
namespace {

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

// Parts of /etc a reader could use against the machine or its people:
// password hashes, sudo rules, host keys, private TLS keys. Files are hidden
// behind an empty file, directories behind an empty tmpfs.
constexpr const char* kSecretFiles[] = {"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
                                        "/etc/sudoers", "/etc/security/opasswd", "/etc/machine-id"};
constexpr const char* kSecretDirs[] = {"/etc/ssh", "/etc/ssl/private", "/etc/sudoers.d", "/etc/NetworkManager/system-connections",
                                       "/etc/wireguard", "/etc/openvpn", "/etc/letsencrypt"};
// The system's read-only parts a command needs to run.
constexpr const char* kSystemDirs[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"};

void addSystemDirs(std::vector<std::string>& argv) {
  for (const char* dir : kSystemDirs) {
    struct stat st {};
    if (::lstat(dir, &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {  // /bin -> usr/bin on merged-/usr systems
      char target[4096];
      ssize_t n = ::readlink(dir, target, sizeof target - 1);
      if (n <= 0) continue;
      argv.insert(argv.end(), {"--symlink", std::string(target, static_cast<size_t>(n)), dir});
    } else if (S_ISDIR(st.st_mode)) {
      argv.insert(argv.end(), {"--ro-bind", dir, dir});
    }
  }
  for (const char* file : kSecretFiles) {
    struct stat st {};
    if (::stat(file, &st) == 0 && S_ISREG(st.st_mode)) argv.insert(argv.end(), {"--ro-bind", "/dev/null", file});
  }
  for (const char* dir : kSecretDirs) {
    struct stat st {};
    if (::stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) argv.insert(argv.end(), {"--tmpfs", dir, "--remount-ro", dir});
  }
}

std::vector<std::string> sealedPrefix(const SealedPolicy& policy, const std::string& cwd) {
  std::vector<std::string> argv = {"bwrap", "--die-with-parent", "--new-session", "--unshare-all", "--cap-drop", "ALL"};
  addSystemDirs(argv);
  argv.insert(argv.end(), {"--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"});
  const std::string home = policy.home.empty() || policy.home == "/" ? "/home/sandbox" : policy.home;
  // An empty $HOME before the roots (a workspace may live in it), made
  // read-only after them (their mount points are created in it first).
  argv.insert(argv.end(), {"--tmpfs", home, "--setenv", "HOME", home});
  for (const auto& root : policy.readableRoots) argv.insert(argv.end(), {"--ro-bind", root, root});
  for (const auto& file : policy.emptiedFiles) argv.insert(argv.end(), {"--ro-bind", "/dev/null", file});
  argv.insert(argv.end(), {"--remount-ro", home});
  argv.insert(argv.end(), {"--chdir", cwd.empty() ? std::string("/") : cwd});
  return argv;
}

// Runs a trial `argv` (ending in `true`) and says why it failed, if it did.
Status trialRun(std::vector<std::string> argv) {
  process::RunSpec spec;
  spec.argv = std::move(argv);
  spec.cwd = "/";
  auto runner = process::ProcessRunner::spawn(spec);
  if (!runner) return makeError(Errc::io, "cannot start bubblewrap: " + runner.error().message);
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
  return makeError(Errc::io, why);
}

}  // namespace

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

std::vector<std::string> sealedArgv(const SealedPolicy& policy, const std::string& cwd, const std::string& command) {
  std::vector<std::string> argv = sealedPrefix(policy, cwd);
  argv.insert(argv.end(), {"--", "bash", "-c", command});
  return argv;
}

Status probeSealedNow() {
  if (!findInPath("bwrap")) {
    return makeError(Errc::not_found, "bubblewrap (bwrap) is not installed, so read-only command lines cannot run "
                                      "sealed; install the bubblewrap package");
  }
  std::vector<std::string> argv = sealedPrefix(SealedPolicy{}, "/");
  argv.insert(argv.end(), {"--", "true"});
  if (Status trial = trialRun(std::move(argv)); !trial) {
    return makeError(Errc::io, "bubblewrap cannot create the read-only sandbox here (" + trial.error().message +
                                   "); it needs user namespaces or root");
  }
  return {};
}

Status probeSealed() {
  static std::once_flag once;
  static std::optional<Status> result;
  std::call_once(once, [] { result = probeSealedNow(); });
  return *result;
}

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
  std::vector<std::string> argv = sandboxPrefix(SandboxPolicy{}, "/");
  argv.insert(argv.end(), {"--", "true"});
  if (Status trial = trialRun(std::move(argv)); !trial) {
    return makeError(Errc::io, "bubblewrap cannot create the sandbox here (" + trial.error().message +
                                   "); it needs user namespaces or root. Turn the sandbox off (--sandbox / "
                                   "tools.sandbox) or allow unprivileged user namespaces");
  }
  return {};
}

Status probeSandbox() {
  // A fact about this machine, the same for every session: probed once.
  static std::once_flag once;
  static std::optional<Status> result;
  std::call_once(once, [] { result = probeSandboxNow(); });
  return *result;
}

}  // namespace lathe::tools::shell
