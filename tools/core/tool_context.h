// What built-in tools share within one session: the workspace, limits, web
// options and the session's model for one-shot questions. Immutable after the
// session starts; any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "protocol/acp/updates.h"
#include "protocol/http/resolver.h"
#include "tools/core/asker.h"
#include "tools/core/change_log.h"
#include "tools/core/file_store.h"
#include "tools/core/one_shot_model.h"
#include "tools/core/terminal_host.h"
#include "tools/core/readable_folders.h"
#include "tools/core/workspace.h"

namespace lathe::tools {

class PlanMode;  // tools/plan/plan_mode.h
class SkillSet;  // tools/skills/skill_set.h

struct ToolLimits {
  int64_t readDefaultLines = 2000;
  int64_t maxLineChars = 2000;
  int64_t maxFileBytes = 20 * 1024 * 1024;
  int64_t grepDefaultMaxMatches = 100;
  int64_t globMaxResults = 1000;             // paths listed by glob
  int64_t readManyMaxBytes = 1024 * 1024;    // text read_many_files returns in all
  unsigned walkThreads = 0;                  // file walker threads for searches; 0: the default (file_walker.h)
};

// How web_fetch reaches the web.
struct WebFetchOptions {
  // Hosts (names or IP literals, as written in URLs) that may be fetched even
  // though they resolve to private, loopback or link-local addresses:
  // settings tools.webFetch.allowPrivateHosts (the user's settings only).
  std::vector<std::string> allowPrivateHosts;
  // Per page, redirects included: the DNS lookups, connecting, the headers
  // (however slowly they trickle in) and the body.
  std::chrono::milliseconds timeout{10'000};
  int64_t maxBodyBytes = 5 * 1024 * 1024;     // reading stops past this
  int maxRedirects = 5;
  int64_t maxTextChars = 250'000;             // page text given to the model, all pages together
  std::shared_ptr<http::Resolver> resolver;   // null: the system's (tests put in their own)
};

struct ToolContext {
  std::shared_ptr<const Workspace> workspace;
  std::shared_ptr<FileStore> files;  // edits go through it (disk or editor)
  ToolLimits limits;
  std::string sessionDataDir;  // per-session files (full shell output); created on demand
  // The global GEMINI.md save_memory adds to (absolute); empty: no save_memory.
  std::string globalMemoryFile;
  // Shows the person the session's plan (write_todos); any thread. Unset: not shown.
  std::function<void(const acp::PlanUpdate&)> showPlan;
  WebFetchOptions web;
  std::shared_ptr<OneShotModel> model;  // null: no model to ask (web tools return what they can)
  // Folders outside the workspace read tools may read (activated skills'); null: none.
  std::shared_ptr<ReadableFolders> readableFolders;
  std::shared_ptr<SkillSet> skills;  // the session's skills (activate_skill); null: none
  std::shared_ptr<Asker> asker;          // null: the editor cannot ask the person (no ask_user)
  // The editor's terminals (terminal/*), where approved commands run when
  // settings say so; null: commands run here.
  std::shared_ptr<TerminalHost> terminals;
  // Plan mode (its plans folder, on or off, the switch); null: the session
  // has nowhere to keep plans, so plan mode stays read-only and has no tools.
  std::shared_ptr<PlanMode> plan;
  // Where writes and approved commands' changes are kept for rewinds and
  // shown as diffs; null: nothing is kept.
  std::shared_ptr<ChangeLog> changes;
};

}  // namespace lathe::tools

#include <optional>
#include <string>
#include <string_view>

#include "tools/core/tool.h"

namespace lathe::tools {

// A model-supplied path resolved inside the workspace, or the tool error for it.
struct ResolvedPath {
  std::string path;
  std::optional<ToolError> error;
};
ResolvedPath resolveToolPath(const Workspace& workspace, std::string_view path);
// The same for a tool that only reads: an absolute path inside one of the
// context's readable folders resolves too.
ResolvedPath resolveReadPath(const ToolContext& context, std::string_view path);

}  // namespace lathe::tools
