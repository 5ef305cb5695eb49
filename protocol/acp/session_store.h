// ACP methods over recorded sessions: session/load, session/resume (same
// params), session/list. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "protocol/acp/common.h"
#include "protocol/acp/config_options.h"
#include "protocol/acp/mcp_servers.h"
#include "protocol/acp/session.h"

namespace lathe::acp {

// session/load and session/resume: which session, and where it runs now.
struct LoadSessionRequest {
  std::string sessionId;
  std::string cwd;
  std::vector<std::string> additionalDirectories;
  std::vector<McpServer> mcpServers;
  static Result<LoadSessionRequest> fromJson(const json::Value& params);
};
using ResumeSessionRequest = LoadSessionRequest;

// The session's modes and options, as after session/new (without its id).
struct LoadSessionResponse {
  std::string currentModeId;
  std::vector<SessionMode> availableModes;
  std::vector<ConfigOption> configOptions;
  json::Raw toJson() const;
};

struct ListSessionsRequest {
  std::optional<std::string> cwd;
  std::optional<std::string> cursor;
  static Result<ListSessionsRequest> fromJson(const json::Value& params);
};

struct SessionInfo {
  std::string sessionId;
  std::string cwd;
  std::vector<std::string> additionalDirectories;
  std::string title;      // omitted when empty
  std::string updatedAt;  // ISO 8601; omitted when empty
};

struct ListSessionsResponse {
  std::vector<SessionInfo> sessions;
  std::optional<std::string> nextCursor;
  json::Raw toJson() const;
};

}  // namespace lathe::acp
