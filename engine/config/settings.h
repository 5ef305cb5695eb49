// Gemini CLI settings files (settings.json, comments allowed): the parts Lathe
// honours, merged in order so later files win. Read once at start-up.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/hook_settings.h"
#include "engine/config/program_settings.h"
#include "engine/config/subagent_options.h"
#include "engine/model/generation_settings.h"
#include "engine/model/pricing.h"
#include "protocol/base/json.h"
#include "protocol/base/result.h"

namespace lathe::engine {

struct Settings {
  std::optional<std::string> model;                      // model.name
  std::optional<std::string> provider;                   // model.provider (Lathe's own): gemini or openai
  // model.choices (Lathe's own): the models offered in the editor's picker, per provider
  std::map<std::string, std::vector<std::string>> modelChoices;
  std::map<std::string, int64_t> contextLimits;          // model.contextLimits: tokens per model name
  // model.generationConfig (Lathe's own): sampling and thinking per model name or beginning
  GenerationOverrides generation;
  // model.pricing (Lathe's own, the person's files only): USD per million tokens per model name or beginning
  PriceTable pricing;
  std::optional<std::vector<std::string>> coreTools;     // tools.core
  std::optional<std::vector<std::string>> excludeTools;  // tools.exclude
  std::optional<std::string> approvalMode;               // general.defaultApprovalMode
  std::optional<std::string> proxy;                      // proxy: for model, token, MCP HTTP and web requests
  std::optional<std::string> authSelectedType;           // security.auth.selectedType: the login the person picked
  std::optional<std::vector<std::string>> allowedTools;  // tools.allowed
  std::optional<bool> sandbox;                           // tools.sandbox (true or any runtime name)
  std::optional<bool> sandboxNetwork;                    // tools.sandboxNetwork (Lathe's own)
  // tools.webFetch.allowPrivateHosts (Lathe's own, the user's files only): hosts
  // web_fetch may reach though they resolve to private or loopback addresses.
  std::optional<std::vector<std::string>> webFetchAllowPrivateHosts;
  std::optional<double> compressionThreshold;            // model.compressionThreshold: share of the window
  std::optional<bool> disableLoopDetection;              // model.disableLoopDetection
  std::optional<int64_t> truncateToolOutputThreshold;    // tools.truncateToolOutputThreshold: characters
  std::map<std::string, int64_t> summarizeToolOutput;    // model.summarizeToolOutput: tool -> tokenBudget
  std::optional<std::vector<std::string>> mcpAllowed;    // mcp.allowed: only these servers start; their calls run unasked
  std::optional<std::vector<std::string>> mcpExcluded;   // mcp.excluded: these servers never start
  std::optional<std::vector<std::string>> contextFileNames;  // context.fileName: a name or a list of names
  std::optional<int64_t> contextDiscoveryMaxDirs;        // context.discoveryMaxDirs: folders scanned below a root
  std::optional<bool> enableAgents;                      // experimental.enableAgents: sub-agents
  std::map<std::string, AgentOverride> agentOverrides;   // agents.overrides: per sub-agent
  std::optional<std::vector<std::string>> policyPaths;       // policyPaths: the person's policy files or folders
  std::optional<std::vector<std::string>> adminPolicyPaths;  // adminPolicyPaths: more of the administrator's
  std::optional<bool> skillsEnabled;                     // skills.enabled
  std::optional<std::vector<std::string>> skillsDisabled;  // skills.disabled: skill names, any case
  std::optional<bool> blockGitExtensions;                // security.blockGitExtensions
  std::optional<std::vector<std::string>> allowedExtensions;  // security.allowedExtensions: patterns of install sources
  // mcpServers and the discovery commands of the user's files (a workspace's
  // are read per session, under consent: workspace_programs.h).
  ProgramSettings programs;
  // hooks of the user's files, in file order (a workspace's: workspace_programs.h).
  HookSet hooks;
  std::optional<bool> hooksEnabled;                      // hooksConfig.enabled
  std::optional<std::vector<std::string>> hooksDisabled;  // hooksConfig.disabled: hook names (or commands) that do not run
  std::optional<bool> hookNotifications;                 // hooksConfig.notifications
};

// Whose file it is: a workspace's may not start programs by itself, so its
// program parts are left to the session (workspace_programs.h).
enum class SettingsScope { user, workspace };

// Reads one file into settings, key by key as settings_table.h's rows say
// (fields it sets override). A missing file is fine; a broken one is an error
// naming the file and the field.
Status mergeSettingsFile(const std::string& path, Settings& settings, SettingsScope scope = SettingsScope::user,
                         const EnvLookup& env = processEnvironment());

// Reads a settings file's text into a document (comments allowed). nullopt
// when the file does not exist; an error naming the file when it is broken.
Result<std::optional<json::Document>> readSettingsDocument(const std::string& path);

// Removes // and /* */ comments outside strings (settings.json is JSONC).
std::string stripJsonComments(const std::string& text);

}  // namespace lathe::engine
