// Runs one command hook as Gemini CLI does: `bash -c <command>` in the
// workspace, the event as JSON on stdin, $GEMINI_PROJECT_DIR, $GEMINI_CWD,
// $GEMINI_SESSION_ID and $CLAUDE_PROJECT_DIR set (and replaced in the
// command, quoted, so a path with spaces stays one word), without the
// secrets of Lathe's environment (the rule MCP servers and discovery follow;
// Gemini CLI sanitizes hooks' environment the same way). Lathe keeps no plan
// files, so $GEMINI_PLANS_DIR is not set. It runs through the project's
// process machinery (tools/process/captured_run.h): its own process group,
// its pipes and exit watched on the executor, its timeout a timer there; the
// timeout, cancellation or too much output kill its whole tree. Blocks the
// calling thread until it has ended; any thread.
#pragma once

#include <string>

#include "engine/config/hook_settings.h"
#include "engine/hooks/hook_result.h"
#include "protocol/base/cancel.h"

namespace lathe::engine {

struct HookPlace {
  std::string sessionId;
  std::string projectDir;  // the workspace root: the hook's cwd
  std::string plansDir;    // where plan mode writes plans ($GEMINI_PLANS_DIR); empty: none
};

HookResult runHook(const HookDefinition& hook, const std::string& inputJson, const HookPlace& place,
                   const CancelToken& cancel);

// The command with Gemini CLI's variables replaced by their quoted values.
std::string expandHookCommand(const std::string& command, const HookPlace& place);

}  // namespace lathe::engine
