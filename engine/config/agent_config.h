// Settings that shape every session of one process: the model, its provider,
// limits. Built once at start-up by server/, then read-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/context_options.h"
#include "engine/config/hook_settings.h"
#include "engine/config/policy_folders.h"
#include "engine/config/program_settings.h"
#include "engine/config/subagent_options.h"
#include "engine/scheduler/approval_policy.h"
#include "engine/model/authenticated_provider.h"
#include "engine/model/generation_settings.h"
#include "engine/model/model_provider.h"
#include "engine/model/pricing.h"
#include "tools/core/tool_context.h"
#include "tools/memory/context_files.h"
#include "tools/shell/shell_setup.h"

namespace lathe::engine {

struct Settings;  // engine/config/settings.h

// What a workspace's settings never override: the --settings file (read
// after the workspace's, so applied again over it) and what the command line
// or the environment set.
struct SettingsOverrides {
  std::shared_ptr<const Settings> lastFile;  // --settings; null: none
  bool model = false;           // -m, GEMINI_MODEL, OPENAI_MODEL
  bool approvalMode = false;    // --approval-mode, --yolo
  bool sandbox = false;         // -s/--sandbox
  bool sandboxNetwork = false;  // --sandbox-network
};

struct AgentConfig {
  std::string model = "gemini-2.5-pro";  // for new sessions
  std::vector<std::string> modelChoices;  // offered in the editor's model picker, `model` first
  bool routeAutoModels = true;            // "auto" models route each prompt (the Gemini API's only)
  std::shared_ptr<ModelProvider> provider;
  // The same provider when the person's credentials shape it (ACP authenticate
  // and logout); null in tests that give a provider of their own.
  std::shared_ptr<AuthenticatedProvider> auth;
  int maxTurnRequests = 100;         // model calls in one prompt turn
  int64_t contextWindow = 1'048'576;  // tokens, for models without a configured limit
  std::map<std::string, int64_t> contextLimits;  // tokens per model name (settings model.contextLimits)
  GenerationOverrides generation;  // settings model.generationConfig, over each family's defaults
  PriceTable pricing;              // settings model.pricing, over the built-in prices
  tools::ToolLimits toolLimits;
  tools::WebFetchOptions webFetch;   // settings tools.webFetch.allowPrivateHosts
  tools::ShellOptions shell;
  ApprovalMode approvalMode = ApprovalMode::standard;  // for new sessions
  std::vector<std::string> coreTools;     // settings tools.core: only these (empty: all)
  std::vector<std::string> excludeTools;  // settings tools.exclude
  std::vector<std::string> allowedTools;  // settings tools.allowed
  std::string dataDir;                    // per-session files go in dataDir/<sessionId>
  // Settings general.plan.directory: where plan mode keeps plans, relative to
  // the workspace root; empty: the session's data folder (dataDir/<id>/plans).
  std::string planDirectory;
  ContextOptions context;                 // compression, output budgets, loop detection
  // Context files (GEMINI.md): names, the global folder, scan bounds. The
  // global memory file save_memory adds to is globalDir/<first name>.
  tools::ContextFileOptions memory;
  // Programs the user's settings start (MCP servers, discovery commands);
  // a workspace's are read per session and wait for consent.
  ProgramSettings programs;
  // Gemini CLI's policy folders by tier (read for each session) and where
  // "always" answers are kept beyond the session.
  PolicyFolders policies;
  // Someone can be asked (false for `lathe run` without a terminal): policy
  // rules may hold for one or the other (their `interactive` key).
  bool interactive = true;
  // Hooks that run without consent: the person's settings' and extensions'
  // (a workspace's are read per session and wait for consent).
  HookSet hooks;
  HookOptions hookOptions;  // settings hooksConfig
  std::optional<std::vector<std::string>> mcpAllowed;  // settings mcp.allowed
  std::vector<std::string> mcpExcluded;                // settings mcp.excluded
  std::string userSettingsPath;  // the user's settings.json (a workspace at home is not a workspace's)
  // Gemini CLI's home ($GEMINI_CLI_HOME, else $HOME): its .gemini folder's
  // commands, skills and extensions, and .agents/skills; empty: none read.
  std::string homeDir;
  bool skillsEnabled = true;                // settings skills.enabled
  std::vector<std::string> disabledSkills;  // settings skills.disabled
  bool blockGitExtensions = false;          // settings security.blockGitExtensions
  std::vector<std::string> allowedExtensions;  // settings security.allowedExtensions (patterns; empty: all)
  std::string stateDir;          // Lathe's state: remembered workspace consent; empty: nothing remembered
  bool readWorkspacePrograms = true;  // a session reads its workspace's .gemini/settings.json (settings and programs)
  bool trustWorkspace = false;        // --trust-workspace: they start without asking
  // Sessions merge their workspace's other settings over this config
  // (engine/config/workspace_settings.h); these still win over them.
  SettingsOverrides overrides;
  SubagentOptions subagents;
  size_t sessionListPage = 50;        // sessions per session/list page (small in tests, to page)
};

// The context window of a model: configured, else the config's default.
inline int64_t contextWindowOf(const AgentConfig& config, const std::string& model) {
  auto it = config.contextLimits.find(model);
  return it == config.contextLimits.end() ? config.contextWindow : it->second;
}

}  // namespace lathe::engine
