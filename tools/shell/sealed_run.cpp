// Sealed-run bookkeeping and wording. SealedFailures is guarded by its mutex.
#include "tools/shell/sealed_run.h"

#include "tools/shell/sandbox.h"

namespace lathe::tools::shell {

bool SealedFailures::contains(const std::string& command) const {
  std::lock_guard lock(mutex_);
  return commands_.count(command) > 0;
}

void SealedFailures::add(const std::string& command) {
  std::lock_guard lock(mutex_);
  commands_.insert(command);
}

void askInsteadOfSealing(ExecConfirmation& details, const std::string& unavailable, bool failedSealedBefore) {
  if (!details.readOnly) return;
  if (!unavailable.empty()) {
    details.readOnly = false;
    details.note = "Asked because read-only command lines cannot run in the read-only sandbox here: " + unavailable;
  } else if (failedSealedBefore) {
    details.readOnly = false;
    details.note = "Asked because this line failed in the read-only sandbox; if you allow it, it runs unsealed.";
  }
}

std::string sealedNoteForModel(bool failed) {
  std::string note =
      "Sandbox: this line ran without the person's approval, so it ran sealed: the workspace read-only, an empty "
      "read-only HOME, no network, nothing visible outside the workspace and the system folders.";
  if (failed) {
    note += std::string("\n") + kSealedFailurePrefix +
            "the command failed, possibly because of the seal (a write, a network connection, a file outside the "
            "workspace, or configuration in HOME). Do not retry it blindly: if it needs any of these, run the same "
            "line again and the person will be asked to approve it unsealed.";
  }
  return note;
}

}  // namespace lathe::tools::shell
