// Sub-agent session updates.
#include "protocol/acp/subagents.h"

#include "protocol/base/enum_names.h"

namespace lathe::acp {
namespace {

constexpr EnumName<SubagentState::Kind> kStates[] = {
    {SubagentState::Kind::running, "running"},
    {SubagentState::Kind::idle, "idle"},
    {SubagentState::Kind::requires_action, "requires_action"},
};

void writeState(json::Writer& w, const SubagentState& state) {
  json::object(w, "state", [&] {
    json::put(w, "state", nameOf(kStates, state.kind));
    if (state.kind != SubagentState::Kind::idle) return;
    if (state.error) {
      json::put(w, "stopReason", "error");
      // A JSON-RPC error object; -32603: the child failed inside the agent.
      json::object(w, "error", [&] {
        json::put(w, "code", -32603);
        json::put(w, "message", *state.error);
      });
    } else if (state.stopReason) {
      json::put(w, "stopReason", toString(*state.stopReason));
    }
  });
}

}  // namespace

void writeSubagentUpdateFields(json::Writer& w, const SubagentUpdate& u) {
  json::put(w, "sessionId", u.sessionId);
  if (u.title) json::put(w, "title", *u.title);
  if (u.description) json::put(w, "description", *u.description);
  if (u.cancellable) json::object(w, "capabilities", [&] { json::put(w, "cancel", json::Raw{"{}"}); });
  if (u.state) writeState(w, *u.state);
  if (u.cwd) json::put(w, "cwd", *u.cwd);
  if (u.toolCallId) {
    json::object(w, "_meta", [&] { json::object(w, "lathe", [&] { json::put(w, "toolCallId", *u.toolCallId); }); });
  }
}

void writeSessionMessageFields(json::Writer& w, const SessionMessage& m) {
  json::put(w, "messageId", m.messageId);
  if (m.senderSessionId) json::put(w, "senderSessionId", *m.senderSessionId);
  if (m.recipientSessionId) json::put(w, "recipientSessionId", *m.recipientSessionId);
}

void writeSessionMessageChunkFields(json::Writer& w, const SessionMessageChunk& c) {
  json::put(w, "messageId", c.messageId);
  json::object(w, "content", [&] {
    json::put(w, "type", "text");
    json::put(w, "text", c.text);
  });
}

}  // namespace lathe::acp
