// Starting the recording of a session: its metadata from the request that
// made it, and the MCP servers as JSON. Any thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/persistence/session_recorder.h"
#include "engine/persistence/session_store.h"
#include "engine/session/session.h"
#include "protocol/acp/mcp_servers.h"
#include "protocol/acp/session.h"

namespace lathe::engine::persist {

// The servers in the shape of ACP's McpServer, to keep in the metadata.
json::Raw mcpServersJson(const std::vector<acp::McpServer>& servers);

// Starts recording a new session; null (and a logged warning) when it cannot
// be recorded: the session still works.
std::shared_ptr<SessionRecorder> recorderFor(const SessionStore& store, const Session& session,
                                             const acp::NewSessionRequest& request);

}  // namespace lathe::engine::persist
