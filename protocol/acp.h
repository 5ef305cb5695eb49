// ACP v1 wire types (Agent Client Protocol): fields spelled as on the wire, each
// with its fromJson/toJson beside it. Only what Lathe sends or reads. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "protocol/json.h"
#include "protocol/result.h"

namespace lathe::acp {

inline constexpr int kProtocolVersion = 1;

enum class ToolKind { read, edit, del, move, search, execute, think, fetch, switch_mode, other };
enum class ToolCallStatus { pending, in_progress, completed, failed };
enum class StopReason { end_turn, max_tokens, max_turn_requests, refusal, cancelled };

const char* toString(ToolKind kind);
const char* toString(ToolCallStatus status);
const char* toString(StopReason reason);

// ---- initialize ----
struct ClientCapabilities {
  bool readTextFile = false;
  bool writeTextFile = false;
  bool terminal = false;
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

struct InitializeResponse {
  AgentInfo agentInfo;
  bool loadSession = false;
  bool image = false;
  bool embeddedContext = false;
  json::Raw toJson() const;
};

// ---- sessions ----
struct NewSessionRequest {
  std::string cwd;
  std::vector<std::string> additionalDirectories;
  json::Raw mcpServers;  // interpreted by the MCP layer
  static Result<NewSessionRequest> fromJson(const json::Value& params);
};

struct SessionMode {
  std::string id;
  std::string name;
  std::string description;
};

struct NewSessionResponse {
  std::string sessionId;
  std::string currentModeId;
  std::vector<SessionMode> availableModes;
  json::Raw toJson() const;
};

// A prompt content block. Text and resource links are the baseline; embedded
// resources carry their text inline.
struct ContentBlock {
  std::string type;  // text | resource_link | resource | image | audio
  std::string text;
  std::string uri;
  std::string name;
  std::string mimeType;
  std::string data;  // base64 for image/audio
  static Result<ContentBlock> fromReader(json::Reader& r);
};

struct PromptRequest {
  std::string sessionId;
  std::vector<ContentBlock> prompt;
  static Result<PromptRequest> fromJson(const json::Value& params);
};

struct PromptResponse {
  StopReason stopReason = StopReason::end_turn;
  json::Raw toJson() const;
};

struct CancelNotification {
  std::string sessionId;
  static Result<CancelNotification> fromJson(const json::Value& params);
};

// ---- session/update ----
struct ToolCallLocation {
  std::string path;
  std::optional<int64_t> line;
};

// One item of tool call content: text, or a diff of a file.
struct ToolCallContent {
  enum class Type { text, diff } type = Type::text;
  std::string text;
  std::string path;
  std::optional<std::string> oldText;  // null for a new file
  std::string newText;
};

struct MessageChunk {
  enum class Role { agent, thought, user } role = Role::agent;
  std::string text;
};

struct ToolCall {
  std::string toolCallId;
  std::string title;
  ToolKind kind = ToolKind::other;
  ToolCallStatus status = ToolCallStatus::pending;
  std::vector<ToolCallLocation> locations;
  json::Raw rawInput;
  std::vector<ToolCallContent> content;
};

// Only the fields that changed are sent.
struct ToolCallUpdate {
  std::string toolCallId;
  std::optional<ToolCallStatus> status;
  std::optional<std::string> title;
  std::optional<ToolKind> kind;
  std::optional<std::vector<ToolCallContent>> content;
  std::optional<std::vector<ToolCallLocation>> locations;
  json::Raw rawInput;
  json::Raw rawOutput;
};

struct UsageUpdate {
  int64_t used = 0;  // tokens in context
  int64_t size = 0;  // context window
};

struct CurrentModeUpdate {
  std::string currentModeId;
};

using SessionUpdate = std::variant<MessageChunk, ToolCall, ToolCallUpdate, UsageUpdate, CurrentModeUpdate>;

// The params of a session/update notification.
json::Raw sessionNotification(const std::string& sessionId, const SessionUpdate& update);

// ---- session/request_permission ----
enum class PermissionOptionKind { allow_once, allow_always, reject_once, reject_always };
const char* toString(PermissionOptionKind kind);

struct PermissionOption {
  std::string optionId;
  std::string name;
  PermissionOptionKind kind = PermissionOptionKind::allow_once;
};

struct RequestPermissionRequest {
  std::string sessionId;
  ToolCallUpdate toolCall;
  std::vector<PermissionOption> options;
  json::Raw toJson() const;
};

struct RequestPermissionResponse {
  bool cancelled = true;
  std::string optionId;  // when selected
  static Result<RequestPermissionResponse> fromJson(const json::Value& result);
};

// ---- modes ----
struct SetModeRequest {
  std::string sessionId;
  std::string modeId;
  static Result<SetModeRequest> fromJson(const json::Value& params);
};

// ---- fs/* (client methods) ----
struct ReadTextFileRequest {
  std::string sessionId;
  std::string path;
  json::Raw toJson() const;
};
Result<std::string> readTextFileResult(const json::Value& result);

struct WriteTextFileRequest {
  std::string sessionId;
  std::string path;
  std::string content;
  json::Raw toJson() const;
};

}  // namespace lathe::acp
