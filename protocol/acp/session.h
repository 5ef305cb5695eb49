// ACP session lifecycle: session/new, set_mode, cancel, close. Pure.
#pragma once

#include <string>
#include <vector>

#include "protocol/acp/common.h"
#include "protocol/acp/config_options.h"
#include "protocol/acp/mcp_servers.h"

namespace lathe::acp {

struct NewSessionRequest {
  std::string cwd;
  std::vector<std::string> additionalDirectories;
  std::vector<McpServer> mcpServers;
  static Result<NewSessionRequest> fromJson(const json::Value& params);
};

struct SessionMode {
  std::string id;
  std::string name;
  std::string description;
};

// The "modes" and "configOptions" members shared by the new/load/resume
// responses (each left out when empty).
void writeSessionSetup(json::Writer& w, const std::string& currentModeId, const std::vector<SessionMode>& availableModes,
                       const std::vector<ConfigOption>& configOptions);

struct NewSessionResponse {
  std::string sessionId;
  std::string currentModeId;
  std::vector<SessionMode> availableModes;
  std::vector<ConfigOption> configOptions;
  json::Raw toJson() const;
};

struct SetModeRequest {
  std::string sessionId;
  std::string modeId;
  static Result<SetModeRequest> fromJson(const json::Value& params);
};

// session/cancel, session/close and session/delete carry only the session.
struct SessionRef {
  std::string sessionId;
  static Result<SessionRef> fromJson(const json::Value& params);
};
using CancelNotification = SessionRef;
using CloseSessionRequest = SessionRef;
using DeleteSessionRequest = SessionRef;

}  // namespace lathe::acp
