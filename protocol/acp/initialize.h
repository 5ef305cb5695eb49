// ACP initialize and authenticate: what each side can do. Pure.
#pragma once

#include <string>

#include "protocol/acp/common.h"

namespace lathe::acp {

struct ClientCapabilities {
  bool readTextFile = false;
  bool writeTextFile = false;
};

struct InitializeRequest {
  int64_t protocolVersion = 0;
  ClientCapabilities clientCapabilities;
  std::string clientName;
  static Result<InitializeRequest> fromJson(const json::Value& params);
};

struct AgentInfo {
  std::string name;
  std::string title;
  std::string version;
};

// Only what works is advertised.
struct AgentCapabilities {
  bool loadSession = false;
  bool image = false;
  bool audio = false;
  bool embeddedContext = false;
  bool mcpHttp = false;
  bool mcpSse = false;
  bool sessionAdditionalDirectories = false;
  bool sessionClose = false;
  bool sessionList = false;
  bool sessionResume = false;
};

struct InitializeResponse {
  AgentInfo agentInfo;
  AgentCapabilities capabilities;
  json::Raw toJson() const;
};

struct AuthenticateRequest {
  std::string methodId;
  static Result<AuthenticateRequest> fromJson(const json::Value& params);
};

}  // namespace lathe::acp
