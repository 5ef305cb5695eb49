// session/update encoding.
#include "protocol/acp/updates.h"

#include "protocol/base/enum_names.h"

namespace lathe::acp {
namespace {

constexpr EnumName<MessageChunk::Role> kChunkKinds[] = {
    {MessageChunk::Role::agent, "agent_message_chunk"},
    {MessageChunk::Role::thought, "agent_thought_chunk"},
    {MessageChunk::Role::user, "user_message_chunk"},
};

constexpr EnumName<PlanEntryStatus> kPlanEntryStatuses[] = {
    {PlanEntryStatus::pending, "pending"},
    {PlanEntryStatus::in_progress, "in_progress"},
    {PlanEntryStatus::completed, "completed"},
};

constexpr EnumName<PlanEntryPriority> kPlanEntryPriorities[] = {
    {PlanEntryPriority::medium, "medium"},
    {PlanEntryPriority::high, "high"},
    {PlanEntryPriority::low, "low"},
};

constexpr EnumName<NoticeSeverity> kNoticeSeverities[] = {
    {NoticeSeverity::info, "info"},
    {NoticeSeverity::warning, "warning"},
    {NoticeSeverity::error, "error"},
};

constexpr EnumName<CompactionStatus> kCompactionStatuses[] = {
    {CompactionStatus::in_progress, "in_progress"},
    {CompactionStatus::completed, "completed"},
    {CompactionStatus::failed, "failed"},
    {CompactionStatus::cancelled, "cancelled"},
};

void writeTextBlock(json::Writer& w, const std::string& text) {
  json::object(w, [&] {
    json::put(w, "type", "text");
    json::put(w, "text", text);
  });
}

void writeCommands(json::Writer& w, const std::vector<AvailableCommand>& commands) {
  json::array(w, [&] {
    for (const auto& command : commands) {
      json::object(w, [&] {
        json::put(w, "name", command.name);
        json::put(w, "description", command.description);
        if (command.inputHint) json::object(w, "input", [&] { json::put(w, "hint", *command.inputHint); });
      });
    }
  });
}

void writePlanEntries(json::Writer& w, const std::vector<PlanEntry>& entries) {
  json::array(w, [&] {
    for (const auto& entry : entries) {
      json::object(w, [&] {
        json::put(w, "content", entry.content);
        json::put(w, "priority", nameOf(kPlanEntryPriorities, entry.priority));
        json::put(w, "status", nameOf(kPlanEntryStatuses, entry.status));
      });
    }
  });
}

void writeUpdate(json::Writer& w, const SessionUpdate& update) {
  std::visit(
      [&](const auto& u) {
        using T = std::decay_t<decltype(u)>;
        if constexpr (std::is_same_v<T, MessageChunk>) {
          json::put(w, "sessionUpdate", nameOf(kChunkKinds, u.role));
          json::key(w, "content");
          writeTextBlock(w, u.text);
          if (!u.messageId.empty()) json::put(w, "messageId", u.messageId);
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
        } else if constexpr (std::is_same_v<T, SubagentUpdate>) {
          json::put(w, "sessionUpdate", "subagent_update");
          writeSubagentUpdateFields(w, u);
        } else if constexpr (std::is_same_v<T, SessionMessage>) {
          json::put(w, "sessionUpdate", "session_message");
          writeSessionMessageFields(w, u);
        } else if constexpr (std::is_same_v<T, SessionMessageChunk>) {
          json::put(w, "sessionUpdate", "session_message_chunk");
          writeSessionMessageChunkFields(w, u);
        } else if constexpr (std::is_same_v<T, UsageUpdate>) {
          json::put(w, "sessionUpdate", "usage_update");
          json::put(w, "used", u.used);
          json::put(w, "size", u.size);
          if (u.cost) {
            json::object(w, "cost", [&] {
              json::key(w, "amount");
              w.Double(u.cost->amount);
              json::put(w, "currency", u.cost->currency);
            });
          }
        } else if constexpr (std::is_same_v<T, Notice>) {
          json::put(w, "sessionUpdate", "notice");
          json::put(w, "severity", nameOf(kNoticeSeverities, u.severity));
          json::put(w, "title", u.title);
          if (!u.description.empty()) json::put(w, "description", u.description);
        } else if constexpr (std::is_same_v<T, CompactionUpdate>) {
          json::put(w, "sessionUpdate", "compaction_update");
          json::put(w, "compactionId", u.compactionId);
          json::put(w, "status", nameOf(kCompactionStatuses, u.status));
          if (u.error) json::put(w, "error", *u.error);
        } else if constexpr (std::is_same_v<T, CompactionSummaryChunk>) {
          json::put(w, "sessionUpdate", "compaction_summary_chunk");
          json::put(w, "compactionId", u.compactionId);
          json::key(w, "content");
          writeTextBlock(w, u.text);
        }
      },
      update);
}

}  // namespace

void writeSessionNotification(json::Writer& w, const std::string& sessionId, const SessionUpdate& update) {
  json::object(w, [&] {
    json::put(w, "sessionId", sessionId);
    json::object(w, "update", [&] { writeUpdate(w, update); });
  });
}

json::Raw sessionNotification(const std::string& sessionId, const SessionUpdate& update) {
  return {json::build([&](json::Writer& w) { writeSessionNotification(w, sessionId, update); })};
}

}  // namespace lathe::acp
