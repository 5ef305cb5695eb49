// The bubblewrap sandboxes for shell commands. Two kinds:
// - the explicit sandbox (--sandbox, tools.sandbox): the whole file system
//   read-only, the workspace roots (and the session's data directory)
//   writable, a private /tmp, /dev and /proc, its own pid namespace (nothing
//   outlives the shell) and no network unless allowed;
// - the sealed run, for lines that run without the person's approval (judged
//   read-only): only the system's read-only parts (/usr, /bin, /lib*, /etc
//   minus secrets) and the workspace roots, all read-only, an empty $HOME, a
//   private /tmp, a minimal /dev, /proc, no network, no capabilities, every
//   namespace unshared.
// The probes run once per process; the argv builders are pure. Any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "protocol/base/result.h"

namespace lathe::tools::shell {

struct SandboxPolicy {
  std::vector<std::string> writableRoots;  // absolute directories, bound read-write
  bool network = false;                    // keep the host network
};

// The first executable `name` in $PATH (a default PATH when unset), or nullopt.
std::optional<std::string> findInPath(const std::string& name);

// Whether bubblewrap can run here (found in PATH, and a trial run of
// `bwrap ... true` with the flags used for commands succeeds). Probed on the
// first call only; the answer (with bwrap's own words when it fails) is kept.
Status probeSandbox();

// The same probe, not cached (tests, diagnostics).
Status probeSandboxNow();

// The argv that runs `command` with bash inside the sandbox, in `cwd`.
std::vector<std::string> sandboxArgv(const SandboxPolicy& policy, const std::string& cwd, const std::string& command);

struct SealedPolicy {
  std::vector<std::string> readableRoots;  // the workspace roots, bound read-only
  std::string home;                        // $HOME inside: an empty directory ("" : /home/sandbox)
  std::vector<std::string> emptiedFiles;   // under the roots, seen as empty (secrets nobody approved reading)
};

// The argv that runs `command` with bash sealed, in `cwd`.
std::vector<std::string> sealedArgv(const SealedPolicy& policy, const std::string& cwd, const std::string& command);

// Whether the sealed run works here; probed on the first call only.
Status probeSealed();
Status probeSealedNow();

// The words that start the model's note when a sealed line failed.
inline constexpr const char* kSealedFailurePrefix = "read-only sandbox: ";

}  // namespace lathe::tools::shell
