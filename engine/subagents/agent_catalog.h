// The sub-agents one session can start: the built-in ones, then the
// workspace's (.gemini/agents/), then the person's (~/.gemini/agents/); a
// later one with a name already taken is left out and the person told, as
// Gemini CLI does. Settings enable them (experimental.enableAgents) and
// tune each (agents.overrides.<name>). A workspace's agent whose tools could
// run programs waits for the person's consent to the workspace's
// configuration (asked with its MCP servers, engine/agent/session_programs.h)
// and can be started only once it is given. Thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/config/agent_config.h"
#include "engine/config/workspace_programs.h"
#include "engine/subagents/agent_definition.h"

namespace lathe::engine {

class AgentCatalog {
 public:
  enum class Status { available, awaitingConsent, refused, disabled };
  struct Entry {
    std::shared_ptr<const AgentDefinition> agent;
    Status status = Status::available;
  };
  struct Sources {
    std::string userFolder;       // ~/.gemini/agents; empty: none
    std::string workspaceFolder;  // <root>/.gemini/agents; empty: none
  };

  // Reads the folders.
  static std::shared_ptr<AgentCatalog> load(const Sources& sources, const SubagentOptions& options);
  explicit AgentCatalog(std::vector<Entry> entries, std::vector<std::string> problems = {}, bool enabled = true);

  // Sub-agents are on (experimental.enableAgents) and some can be started.
  bool enabled() const { return enabled_; }
  // An agent that can be started now, by name; null otherwise.
  std::shared_ptr<const AgentDefinition> find(std::string_view name) const;
  std::vector<std::shared_ptr<const AgentDefinition>> available() const;
  std::vector<Entry> entries() const;
  // Files that could not be used, one sentence each (file:line: key: problem).
  const std::vector<std::string>& problems() const { return problems_; }

  // The workspace's agents that wait for consent, as the question shows them.
  std::vector<WorkspaceAgent> awaitingConsent() const;
  // The person answered: they become available, or stay refused for this session.
  void settleConsent(bool allowed);

 private:
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
  std::vector<std::string> problems_;
  bool enabled_ = true;
};

std::string_view toString(AgentCatalog::Status status);

}  // namespace lathe::engine
