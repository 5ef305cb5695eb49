// The bubblewrap sandbox for shell commands: the whole file system read-only,
// the workspace roots (and the session's data directory) writable, a private
// /tmp, /dev and /proc, its own pid namespace (nothing outlives the shell) and
// no network unless allowed. The probe runs once per process; the argv
// builder is pure. Any thread.
#pragma once

#include <string>
#include <vector>

#include "protocol/base/result.h"

namespace lathe::tools::shell {

struct SandboxPolicy {
  std::vector<std::string> writableRoots;  // absolute directories, bound read-write
  bool network = false;                    // keep the host network
};

// Whether bubblewrap can run here (found in PATH, and a trial run of
// `bwrap ... true` with the flags used for commands succeeds). Probed on the
// first call only; the answer (with bwrap's own words when it fails) is kept.
Status probeSandbox();

// The same probe, not cached (tests, diagnostics).
Status probeSandboxNow();

// The argv that runs `command` with bash inside the sandbox, in `cwd`.
std::vector<std::string> sandboxArgv(const SandboxPolicy& policy, const std::string& cwd, const std::string& command);

}  // namespace lathe::tools::shell
