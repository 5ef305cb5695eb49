// What the invoke_agent tool of one session needs for every call it runs:
// the parent session, the agents it may start, the connection to the person
// (a child shown as a session of its own sends there), the parent's record
// (which keeps such a child's updates), the process's running children, the
// one place sessions are assembled (engine/agent/session_factory.h), which
// makes each child, and the parent's mode its children follow. Shared by the
// calls of one session; thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "engine/session/editor_client.h"
#include "engine/session/session.h"
#include "engine/subagents/agent_catalog.h"
#include "engine/subagents/child_limits.h"
#include "engine/subagents/child_modes.h"
#include "engine/subagents/child_sessions.h"

namespace lathe::engine {

// One child to assemble: its session id, what it is, the model it uses, its
// editor, its instructions and the hooks that end its run.
struct ChildSpec {
  std::string id;
  std::shared_ptr<const AgentDefinition> agent;
  std::string model;
  EditorClient* editor = nullptr;
  Session::Instructions instructions;
  std::shared_ptr<ChildLimits> limits;  // complete_task reports here
};

using MakeChild = std::function<std::shared_ptr<Session>(const ChildSpec& spec)>;

struct SubagentHost {
  Session& parent;
  std::shared_ptr<AgentCatalog> catalog;
  EditorClient& editor;
  std::function<void(const std::string& sessionId, const acp::SessionUpdate&)> record;  // no-op when not recorded
  std::shared_ptr<ChildSessions> running;
  MakeChild makeChild;
  std::shared_ptr<ChildModes> modes;  // a hook of the parent's
};

}  // namespace lathe::engine
