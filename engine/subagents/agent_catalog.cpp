// The session's sub-agents.
#include "engine/subagents/agent_catalog.h"

#include <algorithm>

#include "engine/subagents/agent_files.h"
#include "engine/subagents/builtin_agents.h"
#include "protocol/base/enum_names.h"
#include "protocol/base/text.h"

namespace lathe::engine {
namespace {

constexpr EnumName<AgentCatalog::Status> kStatuses[] = {
    {AgentCatalog::Status::available, "available"},
    {AgentCatalog::Status::awaitingConsent, "waiting for your consent to the workspace's programs"},
    {AgentCatalog::Status::refused, "not allowed: you did not give consent to the workspace's programs"},
    {AgentCatalog::Status::disabled, "disabled in settings (agents.overrides)"},
};

// The agent as settings tune it (agents.overrides.<name>).
std::shared_ptr<const AgentDefinition> tuned(std::shared_ptr<const AgentDefinition> agent,
                                             const SubagentOptions& options) {
  auto found = options.overrides.find(agent->name);
  if (found == options.overrides.end()) return agent;
  const AgentOverride& o = found->second;
  auto copy = std::make_shared<AgentDefinition>(*agent);
  if (o.maxTurns) copy->maxTurns = *o.maxTurns;
  if (o.maxTimeMinutes) copy->maxTimeMinutes = *o.maxTimeMinutes;
  if (o.maxTokens) copy->maxTokens = *o.maxTokens;
  if (o.model) copy->model = o.model;
  return copy;
}

std::string toolsText(const AgentDefinition& agent) {
  if (!agent.tools) return "all of the session's tools";
  return agent.tools->empty() ? "no tools" : text::join(*agent.tools, ", ");
}

}  // namespace

std::string_view toString(AgentCatalog::Status status) { return nameOf(kStatuses, status); }

AgentCatalog::AgentCatalog(std::vector<Entry> entries, std::vector<std::string> problems, bool enabled)
    : entries_(std::move(entries)), problems_(std::move(problems)), enabled_(enabled) {}

std::shared_ptr<AgentCatalog> AgentCatalog::load(const Sources& sources, const SubagentOptions& options) {
  if (!options.enabled) return std::make_shared<AgentCatalog>(std::vector<Entry>{}, std::vector<std::string>{}, false);
  std::vector<Entry> entries;
  std::vector<std::string> problems;
  auto take = [&](std::shared_ptr<const AgentDefinition> agent, Status status) {
    auto taken = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.agent->name == agent->name; });
    if (taken != entries.end()) {
      problems.push_back(agent->path + ": left out: a sub-agent named " + agent->name + " is already defined (" +
                         originOf(*taken->agent) + ")");
      return;
    }
    auto setting = options.overrides.find(agent->name);
    if (setting != options.overrides.end() && setting->second.enabled == false) status = Status::disabled;
    entries.push_back({tuned(std::move(agent), options), status});
  };
  for (auto& agent : builtinAgents()) take(std::move(agent), Status::available);
  for (const auto& [folder, origin] : {std::pair{sources.workspaceFolder, AgentDefinition::Origin::workspace},
                                       std::pair{sources.userFolder, AgentDefinition::Origin::user}}) {
    if (folder.empty()) continue;
    AgentFiles files = readAgentFolder(folder, origin);
    problems.insert(problems.end(), files.problems.begin(), files.problems.end());
    for (auto& agent : files.agents) {
      const bool waits = origin == AgentDefinition::Origin::workspace && couldRunPrograms(*agent);
      take(std::move(agent), waits ? Status::awaitingConsent : Status::available);
    }
  }
  return std::make_shared<AgentCatalog>(std::move(entries), std::move(problems), true);
}

std::shared_ptr<const AgentDefinition> AgentCatalog::find(std::string_view name) const {
  std::lock_guard lock(mutex_);
  for (const auto& entry : entries_) {
    if (entry.agent->name == name && entry.status == Status::available) return entry.agent;
  }
  return nullptr;
}

std::vector<std::shared_ptr<const AgentDefinition>> AgentCatalog::available() const {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<const AgentDefinition>> out;
  for (const auto& entry : entries_) {
    if (entry.status == Status::available) out.push_back(entry.agent);
  }
  return out;
}

std::vector<AgentCatalog::Entry> AgentCatalog::entries() const {
  std::lock_guard lock(mutex_);
  return entries_;
}

std::vector<WorkspaceAgent> AgentCatalog::awaitingConsent() const {
  std::lock_guard lock(mutex_);
  std::vector<WorkspaceAgent> out;
  for (const auto& entry : entries_) {
    if (entry.status != Status::awaitingConsent) continue;
    out.push_back({entry.agent->name, entry.agent->path, toolsText(*entry.agent), entry.agent->text});
  }
  return out;
}

void AgentCatalog::settleConsent(bool allowed) {
  std::lock_guard lock(mutex_);
  for (auto& entry : entries_) {
    if (entry.status == Status::awaitingConsent) entry.status = allowed ? Status::available : Status::refused;
  }
}

}  // namespace lathe::engine
