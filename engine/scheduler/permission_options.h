// The choices offered in session/request_permission for a confirmation, and
// what a selected option means. "Always" options are never wider than what
// the person sees (this file, these files, these commands, this tool), except
// that an edit also offers all edits for the rest of the session. Each says
// how long it holds: for this session, or kept in this workspace or in every
// workspace from now on (written as a policy rule). Session answers come
// first, narrowest first: a client that binds one key per kind takes the
// narrowest and shortest (autoEdit mode, settings and policy files allow wider).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/scheduler/approval_policy.h"
#include "protocol/acp/client_calls.h"
#include "tools/core/tool.h"

namespace lathe::engine {

// How long an "always" answer holds.
enum class Lasting {
  session,     // this session
  workspace,   // this workspace's sessions from now on
  everywhere,  // every workspace's sessions from now on
};

// Which lengths are offered: an answer that would not take effect (the
// rule that asked outranks it) or cannot be kept is not offered.
struct AlwaysOffers {
  bool session = true;
  bool workspace = false;
  bool everywhere = false;
};

struct PermissionChoice {
  bool allow = false;
  std::optional<AlwaysScope> always;  // set for an "allow always" answer
  Lasting lasting = Lasting::session;
};

std::vector<acp::PermissionOption> permissionOptions(const tools::ConfirmationDetails& details,
                                                     const std::string& toolDisplayName, AlwaysOffers offers = {});

// nullopt for an option we did not offer: the caller must treat it as "no".
std::optional<PermissionChoice> choiceFor(const std::string& optionId, const tools::ConfirmationDetails& details,
                                          AlwaysOffers offers = {});

}  // namespace lathe::engine
