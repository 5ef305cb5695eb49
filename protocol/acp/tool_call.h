// ACP tool calls as the editor sees them: the announcement, later updates, their
// content (text or a file diff) and locations. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "protocol/acp/common.h"

namespace lathe::acp {

struct ToolCallLocation {
  std::string path;
  std::optional<int64_t> line;
};

// One item of tool call content: text, or a diff of a file. A diff's texts
// (megabytes, for a big file) are escaped straight into the message.
struct ToolCallContent {
  enum class Type { text, diff } type = Type::text;
  std::string text;
  std::string path;
  std::optional<std::string> oldText;  // null for a new file
  std::string newText;
};

struct ToolCall {
  std::string toolCallId;
  std::string title;
  std::string name;  // the tool's programmatic name (what the model called); omitted when empty
  ToolKind kind = ToolKind::other;
  ToolCallStatus status = ToolCallStatus::pending;
  std::vector<ToolCallLocation> locations;
  json::Raw rawInput;
  std::vector<ToolCallContent> content;
};

// Only the fields that changed are sent.
struct ToolCallUpdate {
  std::string toolCallId;
  std::string name;  // omitted when empty
  std::optional<ToolCallStatus> status;
  std::optional<std::string> title;
  std::optional<ToolKind> kind;
  std::optional<std::vector<ToolCallContent>> content;
  std::optional<std::vector<ToolCallLocation>> locations;
  json::Raw rawInput;
  json::Raw rawOutput;
  json::Raw meta;  // _meta: an object of extensions (Lathe's own under "lathe")
};

// Writes the fields of a tool call (inside an object the caller opened).
void writeToolCallFields(json::Writer& w, const ToolCall& call);
void writeToolCallUpdateFields(json::Writer& w, const ToolCallUpdate& update);

}  // namespace lathe::acp
