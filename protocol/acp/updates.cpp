// session/update encoding.
#include "protocol/acp/updates.h"

namespace lathe::acp {
namespace {

const char* chunkKind(MessageChunk::Role role) {
  switch (role) {
    case MessageChunk::Role::agent: return "agent_message_chunk";
    case MessageChunk::Role::thought: return "agent_thought_chunk";
    case MessageChunk::Role::user: return "user_message_chunk";
  }
  return "agent_message_chunk";
}

const char* toString(PlanEntryStatus status) {
  switch (status) {
    case PlanEntryStatus::pending: return "pending";
    case PlanEntryStatus::in_progress: return "in_progress";
    case PlanEntryStatus::completed: return "completed";
  }
  return "pending";
}

const char* toString(PlanEntryPriority priority) {
  switch (priority) {
    case PlanEntryPriority::high: return "high";
    case PlanEntryPriority::medium: return "medium";
    case PlanEntryPriority::low: return "low";
  }
  return "medium";
}

void writeCommands(json::Writer& w, const std::vector<AvailableCommand>& commands) {
  w.StartArray();
  for (const auto& command : commands) {
    w.StartObject();
    json::put(w, "name", command.name);
    json::put(w, "description", command.description);
    if (command.inputHint) {
      json::key(w, "input");
      w.StartObject();
      json::put(w, "hint", *command.inputHint);
      w.EndObject();
    }
    w.EndObject();
  }
  w.EndArray();
}

void writePlanEntries(json::Writer& w, const std::vector<PlanEntry>& entries) {
  w.StartArray();
  for (const auto& entry : entries) {
    w.StartObject();
    json::put(w, "content", entry.content);
    json::put(w, "priority", toString(entry.priority));
    json::put(w, "status", toString(entry.status));
    w.EndObject();
  }
  w.EndArray();
}

void writeUpdate(json::Writer& w, const SessionUpdate& update) {
  std::visit(
      [&](const auto& u) {
        using T = std::decay_t<decltype(u)>;
        if constexpr (std::is_same_v<T, MessageChunk>) {
          json::put(w, "sessionUpdate", chunkKind(u.role));
          json::key(w, "content");
          w.StartObject();
          json::put(w, "type", "text");
          json::put(w, "text", u.text);
          w.EndObject();
        } else if constexpr (std::is_same_v<T, ToolCall>) {
          json::put(w, "sessionUpdate", "tool_call");
          writeToolCallFields(w, u);
        } else if constexpr (std::is_same_v<T, ToolCallUpdate>) {
          json::put(w, "sessionUpdate", "tool_call_update");
          writeToolCallUpdateFields(w, u);
        } else if constexpr (std::is_same_v<T, CurrentModeUpdate>) {
          json::put(w, "sessionUpdate", "current_mode_update");
          json::put(w, "currentModeId", u.currentModeId);
        } else if constexpr (std::is_same_v<T, ConfigOptionUpdate>) {
          json::put(w, "sessionUpdate", "config_option_update");
          json::key(w, "configOptions");
          writeConfigOptions(w, u.configOptions);
        } else if constexpr (std::is_same_v<T, SessionInfoUpdate>) {
          json::put(w, "sessionUpdate", "session_info_update");
          if (u.title) json::put(w, "title", *u.title);
        } else if constexpr (std::is_same_v<T, AvailableCommandsUpdate>) {
          json::put(w, "sessionUpdate", "available_commands_update");
          json::key(w, "availableCommands");
          writeCommands(w, u.availableCommands);
        } else if constexpr (std::is_same_v<T, PlanUpdate>) {
          json::put(w, "sessionUpdate", "plan");
          json::key(w, "entries");
          writePlanEntries(w, u.entries);
        } else if constexpr (std::is_same_v<T, UsageUpdate>) {
          json::put(w, "sessionUpdate", "usage_update");
          json::put(w, "used", u.used);
          json::put(w, "size", u.size);
        }
      },
      update);
}

}  // namespace

void writeSessionNotification(json::Writer& w, const std::string& sessionId, const SessionUpdate& update) {
  w.StartObject();
  json::put(w, "sessionId", sessionId);
  json::key(w, "update");
  w.StartObject();
  writeUpdate(w, update);
  w.EndObject();
  w.EndObject();
}

json::Raw sessionNotification(const std::string& sessionId, const SessionUpdate& update) {
  return {json::build([&](json::Writer& w) { writeSessionNotification(w, sessionId, update); })};
}

}  // namespace lathe::acp
