// The settings table: one row per key.
#include "engine/config/settings_table.h"

#include <algorithm>
#include <utility>

#include "engine/config/context_options.h"
#include "engine/config/settings_decode.h"
#include "protocol/base/enum_names.h"

namespace lathe::engine {
namespace {

// Rows over a plain member of Settings.
template <auto Field>
bool isSetField(const Settings& s) {
  const auto& value = s.*Field;
  if constexpr (requires { value.has_value(); }) {
    return value.has_value();
  } else {
    return !value.empty();
  }
}

template <auto Field>
void takeField(Settings& from, Settings& to) {
  to.*Field = std::move(from.*Field);
  from.*Field = {};
}

template <auto Field>
void readString(SettingSource& in, Settings& out) {
  if (auto value = in.parent.optStr(in.key)) out.*Field = std::move(value);
}

template <auto Field>
void readStrings(SettingSource& in, Settings& out) {
  if (auto value = in.parent.optStrings(in.key)) out.*Field = std::move(value);
}

template <auto Field>
void readBool(SettingSource& in, Settings& out) {
  if (auto value = in.parent.optBool(in.key)) out.*Field = value;
}

template <auto Field>
void writeStrings(json::Writer& w, const Settings& s) {
  json::array(w, [&] {
    for (const auto& value : *(s.*Field)) json::str(w, value);
  });
}

template <auto Field>
void writeBool(json::Writer& w, const Settings& s) {
  w.Bool(*(s.*Field));
}

void addAll(std::vector<std::string>& into, const std::vector<std::string>& more) {
  for (const auto& name : more) {
    if (std::find(into.begin(), into.end(), name) == into.end()) into.push_back(name);
  }
}

// A later tools.core can only keep tools the earlier one kept; an empty
// meet keeps the earlier list (never "all tools", which is what empty means).
void narrowCore(std::vector<std::string>& core, const std::vector<std::string>& later) {
  if (core.empty()) {
    core = later;
    return;
  }
  std::vector<std::string> both;
  for (const auto& name : core) {
    if (std::find(later.begin(), later.end(), name) != later.end()) both.push_back(name);
  }
  if (!both.empty()) core = std::move(both);
}

Result<ApprovalMode> approvalModeOf(const std::string& id) {
  auto mode = parseApprovalMode(id);
  if (!mode) {
    return makeError(Errc::invalid_params, "unknown approval mode \"" + id + "\" (default, autoEdit, yolo, plan)");
  }
  return *mode;
}

Status applyModel(AgentConfig& config, const Settings& s) {
  if (config.overrides.model) return {};
  config.model = *s.model;
  // The picker shows the current model first.
  auto& choices = config.modelChoices;
  choices.erase(std::remove(choices.begin(), choices.end(), config.model), choices.end());
  choices.insert(choices.begin(), config.model);
  return {};
}

Status applyApprovalMode(AgentConfig& config, const Settings& s) {
  if (config.overrides.approvalMode) return {};
  auto mode = approvalModeOf(*s.approvalMode);
  if (!mode) return mode.error();
  config.approvalMode = *mode;
  return {};
}

// autoEdit and yolo run more without asking; default and plan do not.
Result<bool> approvalModeWidens(const Settings& s) {
  auto mode = approvalModeOf(*s.approvalMode);
  if (!mode) return mode.error();
  return *mode != ApprovalMode::standard && *mode != ApprovalMode::plan;
}

Status applyTruncation(AgentConfig& config, const Settings& s) {
  config.context.toolOutputChars = *s.truncateToolOutputThreshold;
  // The shell keeps a head and tail of its own; sized so that with its notes
  // it fits the response budget and is not cut twice.
  config.shell.maxOutputChars = keptCharsOf(config.context.toolOutputChars);
  return {};
}

constexpr auto kTuning = KeyScope::tuning;
constexpr auto kWidening = KeyScope::widening;
constexpr auto kPersonal = KeyScope::personal;
constexpr auto kPrograms = KeyScope::programs;
constexpr auto kStart = SettingApplies::processStart;
constexpr auto kSession = SettingApplies::perSession;

const SettingKey kTable[] = {
    {.name = "model.name", .scope = kTuning, .merge = SettingMerge::replace, .applies = kSession,
     .read = readString<&Settings::model>, .isSet = isSetField<&Settings::model>, .take = takeField<&Settings::model>,
     .apply = applyModel,
     .doc = "the model for new sessions (-m, GEMINI_MODEL and OPENAI_MODEL win)"},
    {.name = "model.provider", .scope = kPersonal, .merge = SettingMerge::replace, .applies = kStart,
     .toldInWorkspace = true, .read = readString<&Settings::provider>, .isSet = isSetField<&Settings::provider>,
     .take = takeField<&Settings::provider>,
     .doc = "gemini or openai (--provider wins)"},
    {.name = "model.choices", .scope = kPersonal, .merge = SettingMerge::byName, .applies = kStart,
     .toldInWorkspace = true, .read = decode::modelChoices, .isSet = isSetField<&Settings::modelChoices>,
     .take = takeField<&Settings::modelChoices>,
     .doc = "the models the editor's picker offers, per provider"},
    {.name = "model.contextLimits", .scope = kTuning, .merge = SettingMerge::byName, .applies = kSession,
     .read = decode::contextLimits, .isSet = isSetField<&Settings::contextLimits>,
     .take = takeField<&Settings::contextLimits>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       for (const auto& [model, tokens] : s.contextLimits) config.contextLimits[model] = tokens;
       return {};
     },
     .doc = "each model's context window in tokens"},
    // Sampling and thinking only tune the model: a workspace's apply to its sessions.
    {.name = "model.generationConfig", .scope = kTuning, .merge = SettingMerge::byName, .applies = kSession,
     .read = decode::generationConfig, .isSet = isSetField<&Settings::generation>,
     .take = takeField<&Settings::generation>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       for (const auto& [model, generation] : s.generation) config.generation[model] = generation;
       return {};
     },
     .doc = "sampling and thinking per model name or name beginning"},
    // What the cost meter counts: the person's own prices, never a workspace's.
    {.name = "model.pricing", .scope = kPersonal, .merge = SettingMerge::byName, .applies = kStart,
     .toldInWorkspace = true, .read = decode::pricing, .isSet = isSetField<&Settings::pricing>,
     .take = takeField<&Settings::pricing>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       for (const auto& [model, price] : s.pricing) config.pricing[model] = price;
       return {};
     },
     .doc = "USD per million tokens per model name or beginning (input, output, cachedInput), over the built-in prices"},
    {.name = "model.compressionThreshold", .scope = kTuning, .merge = SettingMerge::replace, .applies = kSession,
     .read = decode::compressionThreshold, .isSet = isSetField<&Settings::compressionThreshold>,
     .take = takeField<&Settings::compressionThreshold>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.context.compressionThreshold = *s.compressionThreshold;
       return {};
     },
     .doc = "the share of the context window at which older history is compressed (0.5)"},
    {.name = "model.disableLoopDetection", .scope = kTuning, .merge = SettingMerge::replace, .applies = kSession,
     .read = readBool<&Settings::disableLoopDetection>, .isSet = isSetField<&Settings::disableLoopDetection>,
     .take = takeField<&Settings::disableLoopDetection>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.context.loopDetection = !*s.disableLoopDetection;
       return {};
     },
     .doc = "turns loop detection off"},
    {.name = "model.summarizeToolOutput", .scope = kTuning, .merge = SettingMerge::byName, .applies = kSession,
     .read = decode::summarizeToolOutput, .isSet = isSetField<&Settings::summarizeToolOutput>,
     .take = takeField<&Settings::summarizeToolOutput>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       for (const auto& [tool, budget] : s.summarizeToolOutput) config.context.summarizeTools[tool] = budget;
       return {};
     },
     .doc = "tools whose long outputs a model condenses (optional tokenBudget)"},
    {.name = "tools.core", .scope = kTuning, .merge = SettingMerge::narrow, .applies = kSession,
     .read = readStrings<&Settings::coreTools>, .isSet = isSetField<&Settings::coreTools>,
     .take = takeField<&Settings::coreTools>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       narrowCore(config.coreTools, *s.coreTools);
       return {};
     },
     .doc = "only these tools"},
    {.name = "tools.exclude", .scope = kTuning, .merge = SettingMerge::add, .applies = kSession,
     .read = readStrings<&Settings::excludeTools>, .isSet = isSetField<&Settings::excludeTools>,
     .take = takeField<&Settings::excludeTools>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       addAll(config.excludeTools, *s.excludeTools);
       return {};
     },
     .doc = "tools never offered, or run_shell_command(rm) to refuse a command anywhere in a line"},
    // Widening keys, in the order of the consent text (a remembered consent
    // is to that exact text: reordering them would ask everyone again).
    {.name = "tools.allowed", .scope = kWidening, .merge = SettingMerge::add, .applies = kSession,
     .read = readStrings<&Settings::allowedTools>, .isSet = isSetField<&Settings::allowedTools>,
     .take = takeField<&Settings::allowedTools>,
     .widens = [](const Settings& s) -> Result<bool> { return !s.allowedTools->empty(); },
     .consentText = writeStrings<&Settings::allowedTools>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       addAll(config.allowedTools, *s.allowedTools);
       return {};
     },
     .doc = "tools that skip confirmation, or run_shell_command(git status) prefixes"},
    {.name = "general.defaultApprovalMode", .scope = kWidening, .merge = SettingMerge::replace, .applies = kSession,
     .read = readString<&Settings::approvalMode>, .isSet = isSetField<&Settings::approvalMode>,
     .take = takeField<&Settings::approvalMode>, .widens = approvalModeWidens,
     .consentText = [](json::Writer& w, const Settings& s) { json::str(w, *s.approvalMode); },
     .apply = applyApprovalMode,
     .doc = "default, autoEdit, yolo or plan (--approval-mode and --yolo win); widening: autoEdit and yolo"},
    {.name = "mcp.allowed", .scope = kWidening, .merge = SettingMerge::replace, .applies = kSession,
     .read = readStrings<&Settings::mcpAllowed>, .isSet = isSetField<&Settings::mcpAllowed>,
     .take = takeField<&Settings::mcpAllowed>, .consentText = writeStrings<&Settings::mcpAllowed>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.mcpAllowed = s.mcpAllowed;
       return {};
     },
     .doc = "only these MCP servers start, and their calls run unasked"},
    {.name = "tools.sandbox", .scope = kWidening, .merge = SettingMerge::replace, .applies = kSession,
     .grant = WideningGrant::nextSession, .read = decode::sandbox, .isSet = isSetField<&Settings::sandbox>,
     .take = takeField<&Settings::sandbox>,
     .widens = [](const Settings& s) -> Result<bool> { return !*s.sandbox; },
     .consentText = writeBool<&Settings::sandbox>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       if (!config.overrides.sandbox) config.shell.sandbox = *s.sandbox;
       return {};
     },
     .doc = "run commands in a bubblewrap sandbox (true or a runtime name; -s wins); widening: false"},
    {.name = "tools.sandboxNetwork", .scope = kWidening, .merge = SettingMerge::replace, .applies = kSession,
     .grant = WideningGrant::nextSession, .read = readBool<&Settings::sandboxNetwork>,
     .isSet = isSetField<&Settings::sandboxNetwork>, .take = takeField<&Settings::sandboxNetwork>,
     .widens = [](const Settings& s) -> Result<bool> { return *s.sandboxNetwork; },
     .consentText = writeBool<&Settings::sandboxNetwork>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       if (!config.overrides.sandboxNetwork) config.shell.sandboxNetwork = *s.sandboxNetwork;
       return {};
     },
     .doc = "let sandboxed commands use the network (--sandbox-network wins); widening: true"},
    {.name = "tools.truncateToolOutputThreshold", .scope = kTuning, .merge = SettingMerge::replace,
     .applies = kSession, .read = decode::truncateThreshold,
     .isSet = isSetField<&Settings::truncateToolOutputThreshold>,
     .take = takeField<&Settings::truncateToolOutputThreshold>, .apply = applyTruncation,
     .doc = "characters of one tool response (40,000)"},
    // A repository may not open the person's private network to web_fetch.
    {.name = "tools.webFetch.allowPrivateHosts", .scope = kPersonal, .merge = SettingMerge::replace,
     .applies = kStart, .readInWorkspace = false, .read = readStrings<&Settings::webFetchAllowPrivateHosts>,
     .isSet = isSetField<&Settings::webFetchAllowPrivateHosts>, .take = takeField<&Settings::webFetchAllowPrivateHosts>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.webFetch.allowPrivateHosts = *s.webFetchAllowPrivateHosts;
       return {};
     },
     .doc = "hosts web_fetch may reach though they resolve to private or loopback addresses"},
    {.name = "mcp.excluded", .scope = kTuning, .merge = SettingMerge::add, .applies = kSession,
     .read = readStrings<&Settings::mcpExcluded>, .isSet = isSetField<&Settings::mcpExcluded>,
     .take = takeField<&Settings::mcpExcluded>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       addAll(config.mcpExcluded, *s.mcpExcluded);
       return {};
     },
     .doc = "MCP servers that never start"},
    // It also names the global files read from ~/.gemini into the prompt and
    // the one save_memory writes: a repository naming settings.json there
    // would send the person's settings to the model.
    {.name = "context.fileName", .scope = kPersonal, .merge = SettingMerge::replace, .applies = kStart,
     .toldInWorkspace = true, .read = decode::contextFileName, .isSet = isSetField<&Settings::contextFileNames>,
     .take = takeField<&Settings::contextFileNames>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.memory.fileNames = *s.contextFileNames;
       return {};
     },
     .doc = "the context file names (GEMINI.md): a name or a list"},
    {.name = "context.discoveryMaxDirs", .scope = kTuning, .merge = SettingMerge::replace, .applies = kSession,
     .read = decode::discoveryMaxDirs, .isSet = isSetField<&Settings::contextDiscoveryMaxDirs>,
     .take = takeField<&Settings::contextDiscoveryMaxDirs>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.memory.maxScanDirs = static_cast<size_t>(*s.contextDiscoveryMaxDirs);
       return {};
     },
     .doc = "folders scanned for context files below a root"},
    // Which sub-agents a session can start and their limits are the
    // person's: a repository's own agents wait for consent instead.
    {.name = "experimental.enableAgents", .scope = kPersonal, .merge = SettingMerge::replace, .applies = kStart,
     .toldInWorkspace = true, .read = readBool<&Settings::enableAgents>, .isSet = isSetField<&Settings::enableAgents>,
     .take = takeField<&Settings::enableAgents>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.subagents.enabled = *s.enableAgents;
       return {};
     },
     .doc = "sub-agents (invoke_agent) on or off (true)"},
    {.name = "agents.overrides", .scope = kPersonal, .merge = SettingMerge::byName, .applies = kStart,
     .toldInWorkspace = true, .read = decode::agentOverrides, .isSet = isSetField<&Settings::agentOverrides>,
     .take = takeField<&Settings::agentOverrides>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       for (const auto& [name, o] : s.agentOverrides) config.subagents.overrides[name] = o;
       return {};
     },
     .doc = "per sub-agent: enabled, runConfig.maxTurns, runConfig.maxTimeMinutes, runConfig.maxTokens, "
            "modelConfig.model"},
    {.name = "skills.enabled", .scope = kTuning, .merge = SettingMerge::replace, .applies = kSession,
     .read = readBool<&Settings::skillsEnabled>, .isSet = isSetField<&Settings::skillsEnabled>,
     .take = takeField<&Settings::skillsEnabled>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.skillsEnabled = *s.skillsEnabled;
       return {};
     },
     .doc = "agent skills are found and offered (activate_skill, /skills, /<skill>)"},
    {.name = "skills.disabled", .scope = kTuning, .merge = SettingMerge::add, .applies = kSession,
     .read = readStrings<&Settings::skillsDisabled>, .isSet = isSetField<&Settings::skillsDisabled>,
     .take = takeField<&Settings::skillsDisabled>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       addAll(config.disabledSkills, *s.skillsDisabled);
       return {};
     },
     .doc = "skills (by name, any case) never offered to the model"},
    // Which extensions load is the person's choice alone.
    {.name = "security.blockGitExtensions", .scope = kPersonal, .merge = SettingMerge::replace, .applies = kStart,
     .readInWorkspace = false, .read = readBool<&Settings::blockGitExtensions>,
     .isSet = isSetField<&Settings::blockGitExtensions>, .take = takeField<&Settings::blockGitExtensions>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.blockGitExtensions = *s.blockGitExtensions;
       return {};
     },
     .doc = "extensions installed from git are neither installed nor loaded"},
    {.name = "security.allowedExtensions", .scope = kPersonal, .merge = SettingMerge::replace, .applies = kStart,
     .readInWorkspace = false, .read = readStrings<&Settings::allowedExtensions>,
     .isSet = isSetField<&Settings::allowedExtensions>, .take = takeField<&Settings::allowedExtensions>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.allowedExtensions = *s.allowedExtensions;
       return {};
     },
     .doc = "regular expressions of install sources: when set, only extensions installed from a matching one load"},
    {.name = "proxy", .scope = kPersonal, .merge = SettingMerge::replace, .applies = kStart,
     .readInWorkspace = false, .read = readString<&Settings::proxy>, .isSet = isSetField<&Settings::proxy>,
     .take = takeField<&Settings::proxy>,
     .doc = "the proxy for model, token, MCP HTTP and web requests when the environment names none"},
    // Only the person's own files say how they log in.
    {.name = "security.auth.selectedType", .scope = kPersonal, .merge = SettingMerge::replace, .applies = kStart,
     .readInWorkspace = false, .read = readString<&Settings::authSelectedType>,
     .isSet = isSetField<&Settings::authSelectedType>, .take = takeField<&Settings::authSelectedType>,
     .doc = "the login the person picked in Gemini CLI"},
    // Only the person says where their policies are: a repository naming a
    // folder of its own here would get the user tier, or the admin's.
    {.name = "policyPaths", .scope = kPersonal, .merge = SettingMerge::replace, .applies = kStart,
     .toldInWorkspace = true, .read = decode::policyPaths, .isSet = isSetField<&Settings::policyPaths>,
     .take = takeField<&Settings::policyPaths>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.policies.userPaths = *s.policyPaths;
       return {};
     },
     .doc = "policy files or folders read instead of ~/.gemini/policies, at the user tier"},
    {.name = "adminPolicyPaths", .scope = kPersonal, .merge = SettingMerge::replace, .applies = kStart,
     .toldInWorkspace = true, .read = decode::adminPolicyPaths, .isSet = isSetField<&Settings::adminPolicyPaths>,
     .take = takeField<&Settings::adminPolicyPaths>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.policies.adminPaths = *s.adminPolicyPaths;
       return {};
     },
     .doc = "more policy files or folders at the admin tier (ignored when /etc/gemini-cli/policies has files)"},
    // The three program keys are decoded together (program_settings_decode.h).
    {.name = "mcpServers", .scope = kPrograms, .merge = SettingMerge::byName, .applies = kStart,
     .readInWorkspace = false, .read = decode::programs,
     .isSet = [](const Settings& s) { return !s.programs.mcpServers.empty(); },
     .take = [](Settings& from, Settings& to) { to.programs.mcpServers = std::exchange(from.programs.mcpServers, {}); },
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.programs.mcpServers = s.programs.mcpServers;
       return {};
     },
     .doc = "MCP servers to start (command, args, env and headers with $VAR/${VAR} expansion, cwd, url, "
            "httpUrl, type, timeout, trust, includeTools, excludeTools)"},
    {.name = "tools.discoveryCommand", .scope = kPrograms, .merge = SettingMerge::replace, .applies = kStart,
     .readInWorkspace = false, .isSet = [](const Settings& s) { return s.programs.discoveryCommand.has_value(); },
     .take = [](Settings& from, Settings& to) {
       to.programs.discoveryCommand = std::exchange(from.programs.discoveryCommand, std::nullopt);
     },
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.programs.discoveryCommand = s.programs.discoveryCommand;
       return {};
     },
     .doc = "prints the declarations of tools to add"},
    {.name = "tools.callCommand", .scope = kPrograms, .merge = SettingMerge::replace, .applies = kStart,
     .readInWorkspace = false, .isSet = [](const Settings& s) { return s.programs.callCommand.has_value(); },
     .take = [](Settings& from, Settings& to) {
       to.programs.callCommand = std::exchange(from.programs.callCommand, std::nullopt);
     },
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.programs.callCommand = s.programs.callCommand;
       return {};
     },
     .doc = "runs a discovered tool"},
    // A workspace's hooks are programs too (workspace_programs.h); a bad
    // definition is told to the person and left out, never failing the file.
    {.name = "hooks", .scope = kPrograms, .merge = SettingMerge::add, .applies = kStart, .readInWorkspace = false,
     .read = decode::hooks, .isSet = [](const Settings& s) { return !s.hooks.empty(); },
     .take = [](Settings& from, Settings& to) { to.hooks = std::exchange(from.hooks, {}); },
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.hooks.add(s.hooks);
       return {};
     },
     .doc = "commands run at Gemini CLI's hook events (BeforeTool, AfterTool, BeforeAgent, AfterAgent, BeforeModel, "
            "AfterModel, BeforeToolSelection, SessionStart, SessionEnd, PreCompress, Notification) with `matcher`, "
            "`sequential` and `hooks` (`type`, `command`, `name`, `description`, `timeout`)"},
    // The person's hooks may guard them: a repository may not turn them off.
    {.name = "hooksConfig.enabled", .scope = kPersonal, .merge = SettingMerge::replace, .applies = kStart,
     .toldInWorkspace = true, .read = readBool<&Settings::hooksEnabled>, .isSet = isSetField<&Settings::hooksEnabled>,
     .take = takeField<&Settings::hooksEnabled>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.hookOptions.enabled = *s.hooksEnabled;
       return {};
     },
     .doc = "false: no hook runs"},
    {.name = "hooksConfig.disabled", .scope = kPersonal, .merge = SettingMerge::add, .applies = kStart,
     .toldInWorkspace = true,
     .read = [](SettingSource& in, Settings& out) {
       auto names = in.parent.optStrings(in.key);
       if (!names) return;
       if (!out.hooksDisabled) out.hooksDisabled.emplace();
       addAll(*out.hooksDisabled, *names);
     },
     .isSet = isSetField<&Settings::hooksDisabled>, .take = takeField<&Settings::hooksDisabled>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       addAll(config.hookOptions.disabled, *s.hooksDisabled);
       return {};
     },
     .doc = "hooks that do not run, by name (or command when they have none)"},
    {.name = "hooksConfig.notifications", .scope = kTuning, .merge = SettingMerge::replace, .applies = kSession,
     .read = readBool<&Settings::hookNotifications>, .isSet = isSetField<&Settings::hookNotifications>,
     .take = takeField<&Settings::hookNotifications>,
     .apply = [](AgentConfig& config, const Settings& s) -> Status {
       config.hookOptions.notifications = *s.hookNotifications;
       return {};
     },
     .doc = "false: hooks that ran and allowed are not told (failures, blocks and their messages still are)"},
};

}  // namespace

std::span<const SettingKey> settingsTable() { return kTable; }

const SettingKey* findSetting(std::string_view name) {
  auto it = std::find_if(std::begin(kTable), std::end(kTable), [&](const SettingKey& row) { return row.name == name; });
  return it == std::end(kTable) ? nullptr : &*it;
}

namespace {

// How the README's settings list names a row's scope, merge and time.
constexpr EnumName<KeyScope> kScopes[] = {
    {KeyScope::tuning, "tuning"},
    {KeyScope::widening, "widening"},
    {KeyScope::personal, "personal"},
    {KeyScope::programs, "programs"},
};
constexpr EnumName<SettingMerge> kMerges[] = {
    {SettingMerge::replace, "replace"},
    {SettingMerge::byName, "by name"},
    {SettingMerge::add, "add"},
    {SettingMerge::narrow, "narrow"},
};
constexpr EnumName<SettingApplies> kApplies[] = {
    {SettingApplies::processStart, "process start"},
    {SettingApplies::perSession, "per session"},
};

}  // namespace

std::string_view toString(KeyScope scope) { return nameOf(kScopes, scope); }
std::string_view toString(SettingMerge merge) { return nameOf(kMerges, merge); }
std::string_view toString(SettingApplies applies) { return nameOf(kApplies, applies); }

Status applySettings(AgentConfig& config, const Settings& settings, SettingApplies when) {
  for (const SettingKey& row : kTable) {
    if (!row.apply || !row.isSet(settings)) continue;
    if (when == SettingApplies::perSession && row.applies != SettingApplies::perSession) continue;
    if (auto status = row.apply(config, settings); !status) return status;
  }
  return {};
}

}  // namespace lathe::engine
