// The one place sessions are assembled: new ones (session/new and `lathe
// run`) and recorded ones opened again (session/load and session/resume, and
// session/fork, whose new record is a copy of the original's), from one
// spec, with one ordered list of hooks:
//
//   programs   consent for the workspace's programs and settings, discovery (first turn)
//   hooks      the person's hooks (settings `hooks`), and the workspace's once agreed to
//   context    compression and /compress, loop detection, titles
//   commands   the built-in slash commands, /memory, /agents, skills,
//              /extensions, custom commands (watched)
//   recorder   last: it records the history the others leave
//
// and its sub-agents (invoke_agent), whose child sessions are assembled here
// too (assembleChild): the parent's tools the agent may use, its approvals
// and context files, with compression, loop detection and the child's limits.
//
// Reads settings and records: never call it on the thread that reads stdin.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/agent/session_addons.h"
#include "engine/agent/workspace_setup.h"
#include "engine/config/agent_config.h"
#include "engine/config/consent_store.h"
#include "engine/persistence/session_recorder.h"
#include "engine/persistence/session_store.h"
#include "engine/session/editor_client.h"
#include "engine/session/session.h"
#include "engine/subagents/agent_catalog.h"
#include "engine/subagents/child_sessions.h"
#include "engine/subagents/subagent_host.h"
#include "protocol/acp/mcp_servers.h"
#include "tools/mcp/server_config.h"

namespace lathe::engine {

struct SessionSpec {
  std::string id;
  std::string cwd;  // as the editor named them (recorded)
  std::vector<std::string> additionalDirectories;
  std::vector<acp::McpServer> mcpServers;  // the editor's
  // Opened again: the record to go on with. nullopt: a new session.
  std::optional<persist::SessionRecorder::Opened> record;
};

struct AssembledSession {
  std::shared_ptr<Session> session;
  std::shared_ptr<persist::SessionRecorder> recorder;  // null when not recorded
  std::vector<std::string> shown;  // a reopened session's updates, to replay in order
  // The MCP servers to start once the session is open (the editor's and the
  // person's settings', as settings permit).
  std::vector<tools::mcp::ServerConfig> mcpServers;
};

class SessionFactory {
 public:
  SessionFactory(const AgentConfig& config, EditorClient& editor, std::shared_ptr<ConsentStore> consent,
                 const persist::SessionStore& store, std::shared_ptr<ChildSessions> children)
      : config_(config), editor_(editor), consent_(std::move(consent)), store_(store), children_(std::move(children)) {}

  // A bad cwd or root is an error naming the field.
  Result<AssembledSession> assemble(SessionSpec spec) const;
  // A sub-agent's session under `parent`, for one invoke_agent call.
  std::shared_ptr<Session> assembleChild(Session& parent, const ChildSpec& spec) const;

 private:
  void addHooks(Session& session, const std::string& root, WorkspaceSetup setup, SessionAddOns addOns,
                bool reopened, const std::shared_ptr<AgentCatalog>& agents) const;
  // invoke_agent and the guide's list of sub-agents, when there are any.
  void addSubagents(Session& session, std::shared_ptr<AgentCatalog> agents,
                    std::shared_ptr<persist::SessionRecorder> recorder) const;

  const AgentConfig& config_;
  EditorClient& editor_;
  std::shared_ptr<ConsentStore> consent_;
  const persist::SessionStore& store_;
  std::shared_ptr<ChildSessions> children_;
};

// The workspace of cwd and the other roots, or an error naming the bad one.
Result<std::shared_ptr<const tools::Workspace>> workspaceFor(const std::string& cwd,
                                                            const std::vector<std::string>& directories);

}  // namespace lathe::engine
