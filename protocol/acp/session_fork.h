// ACP's unstable session/fork: a new session that goes on from a copy of an
// existing one's conversation. Its answer is session/new's (the new id, the
// modes and the options). Pure.
#pragma once

#include <string>
#include <vector>

#include "protocol/acp/common.h"
#include "protocol/acp/mcp_servers.h"
#include "protocol/acp/session.h"

namespace lathe::acp {

// Which session to copy, and where the copy runs (as session/new's params).
struct ForkSessionRequest {
  std::string sessionId;
  std::string cwd;
  std::vector<std::string> additionalDirectories;
  std::vector<McpServer> mcpServers;
  static Result<ForkSessionRequest> fromJson(const json::Value& params);
};

using ForkSessionResponse = NewSessionResponse;

}  // namespace lathe::acp
