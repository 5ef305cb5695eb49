// ACP's sub-agent sessions (unstable in the 2.4.0 SDK's schema, stabilized
// on 2026-11-20): the announcement and state of a child session on its
// parent's stream (subagent_update), and messages between sessions
// (session_message, session_message_chunk). Sent only to a client that
// advertised clientCapabilities.subagents. Pure.
#pragma once

#include <optional>
#include <string>

#include "protocol/acp/common.h"

namespace lathe::acp {

// The child's foreground work, a whole snapshot each time (StateUpdate).
struct SubagentState {
  enum class Kind { running, idle, requires_action } kind = Kind::running;
  // idle: why the work stopped; error: StopReason "error" with this message.
  std::optional<StopReason> stopReason;
  std::optional<std::string> error;
};

// subagent_update: sent on the parent's session; the first for a child
// announces it. Absent fields leave what the client knows unchanged.
struct SubagentUpdate {
  std::string sessionId;  // the child's
  std::optional<std::string> title;
  std::optional<std::string> description;
  bool cancellable = false;  // capabilities.cancel, sent with the announcement
  std::optional<SubagentState> state;
  std::optional<std::string> cwd;
  // Lathe's: the parent's tool call that started the child (in _meta, as the
  // 2.4.0 schema has no session content for tool calls yet).
  std::optional<std::string> toolCallId;
};

// session_message: an upsert of a message between sessions.
struct SessionMessage {
  std::string messageId;
  std::optional<std::string> senderSessionId;
  std::optional<std::string> recipientSessionId;
};

// session_message_chunk: text appended to a message between sessions.
struct SessionMessageChunk {
  std::string messageId;
  std::string text;
};

// The fields of each update (inside the update object the caller opened).
void writeSubagentUpdateFields(json::Writer& w, const SubagentUpdate& update);
void writeSessionMessageFields(json::Writer& w, const SessionMessage& message);
void writeSessionMessageChunkFields(json::Writer& w, const SessionMessageChunk& chunk);

}  // namespace lathe::acp
