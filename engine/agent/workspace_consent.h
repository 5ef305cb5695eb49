// Asks the person whether a workspace's settings may start the programs
// they define (MCP servers, discovery commands, hooks), through the editor's
// session/request_permission, shown as a tool call of its own. Remembers
// "always" answers per workspace and exact configuration (ConsentStore);
// "once" answers hold for this session only. Any error or unknown answer is
// a refusal that is not remembered (fail closed). Before asking, answers
// given already count: --trust-workspace, then Gemini CLI's own trust in
// the folder (trusted_folders.h: trusted allows, distrusted refuses, neither
// remembered here), then a remembered answer. Runs on the turn's thread.
#pragma once

#include <string>

#include "engine/config/consent_store.h"
#include "engine/config/trusted_folders.h"
#include "engine/config/workspace_programs.h"
#include "engine/session/editor_client.h"
#include "protocol/base/cancel.h"

namespace lathe::engine {

enum class ConsentOutcome { allowed, refused, cancelled };

struct ConsentQuestion {
  std::string sessionId;
  std::string workspace;  // the root folder the answer is remembered for
  const WorkspacePrograms* programs = nullptr;
  bool trustWorkspace = false;  // --trust-workspace: allowed without asking (not remembered)
  FolderTrust geminiTrust = FolderTrust::unknown;  // Gemini CLI's answer for the folder, if it has one
};

ConsentOutcome askWorkspaceConsent(EditorClient& editor, ConsentStore& store, const ConsentQuestion& question,
                                   const CancelToken& cancel);

// What the person is shown: each program with its command line or address,
// each hook with its event and command.
std::string describePrograms(const WorkspacePrograms& programs);

}  // namespace lathe::engine
