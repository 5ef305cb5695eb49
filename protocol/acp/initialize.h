// ACP initialize and authenticate: what each side can do. Pure.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "protocol/acp/common.h"

namespace lathe::acp {

struct ClientCapabilities {
  bool readTextFile = false;
  bool writeTextFile = false;
  // clientCapabilities.subagents (unstable in SDK 2.4.0): the client shows
  // child sessions, so sub-agents are exposed as sessions of their own.
  bool subagents = false;
  bool elicitationForm = false;  // elicitation.form: elicitation/create with a form
  bool elicitationUrl = false;   // elicitation.url: with a URL to open
  bool compaction = false;       // session.compaction: compaction_update, compaction_summary_chunk
  bool notices = false;          // session.notices: notice updates
  bool terminal = false;         // terminal: the terminal/* methods
  bool terminalOutput = false;   // _meta.terminal_output: Zed's display-only terminals (terminal_info, _output, _exit)
  bool canElicit() const { return elicitationForm || elicitationUrl; }
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
  bool sessionDelete = false;
  bool sessionFork = false;  // unstable session/fork
  bool logout = false;  // agentCapabilities.auth.logout
  bool steering = false;  // _meta.steering.supported: _session/steering (the extension claude and codex share)
};

// An auth method the agent handles itself through `authenticate` (type "agent").
struct AuthMethod {
  std::string id;
  std::string name;
  std::string description;
  json::Raw meta;  // _meta, e.g. Gemini CLI's {"api-key": {...}}
};

struct InitializeResponse {
  AgentInfo agentInfo;
  AgentCapabilities capabilities;
  std::vector<AuthMethod> authMethods;
  json::Raw toJson() const;
};

// What the editor may send along in _meta: a key ("api-key", as Gemini CLI
// reads it) and a gateway ({"baseUrl", "headers"}).
struct AuthenticateRequest {
  std::string methodId;
  std::optional<std::string> apiKey;
  std::optional<std::string> gatewayBaseUrl;
  std::vector<std::pair<std::string, std::string>> gatewayHeaders;
  static Result<AuthenticateRequest> fromJson(const json::Value& params);
};

struct LogoutRequest {
  static Result<LogoutRequest> fromJson(const json::Value& params);
};

}  // namespace lathe::acp
