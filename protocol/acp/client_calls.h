// ACP methods the agent calls on the client: session/request_permission and
// fs/read_text_file, fs/write_text_file. Pure.
#pragma once

#include <string>
#include <vector>

#include "protocol/acp/common.h"
#include "protocol/acp/tool_call.h"

namespace lathe::acp {

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
  void writeJson(json::Writer& w) const;
  json::Raw toJson() const;
};

struct RequestPermissionResponse {
  bool cancelled = true;
  std::string optionId;  // when selected
  static Result<RequestPermissionResponse> fromJson(const json::Value& result);
};

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
