// The choices offered in session/request_permission for a confirmation, and
// what a selected option means. "Always" options are never wider than what
// the person sees (this file, these files, this command, this tool), except
// that an edit also offers all edits for the rest of the session. The first
// option of each kind is the narrowest: a client that binds one key per kind
// picks it (autoEdit mode, or settings, allow wider).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/scheduler/approval_policy.h"
#include "protocol/acp/client_calls.h"
#include "tools/core/tool.h"

namespace lathe::engine {

struct PermissionChoice {
  bool allow = false;
  std::optional<AlwaysScope> always;  // set for an "allow always" answer
};

std::vector<acp::PermissionOption> permissionOptions(const tools::ConfirmationDetails& details,
                                                     const std::string& toolDisplayName);

// nullopt for an option we did not offer: the caller must treat it as "no".
std::optional<PermissionChoice> choiceFor(const std::string& optionId, const tools::ConfirmationDetails& details);

}  // namespace lathe::engine
