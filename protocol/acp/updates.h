// ACP session/update: what the agent streams to the editor during a session.
// Pure.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "protocol/acp/common.h"
#include "protocol/acp/config_options.h"
#include "protocol/acp/subagents.h"
#include "protocol/acp/tool_call.h"

namespace lathe::acp {

// A piece of a message. Every chunk of one message (a prompt, one model
// reply) carries its messageId; empty: none is sent.
struct MessageChunk {
  enum class Role { agent, thought, user };
  MessageChunk() = default;
  MessageChunk(Role of, std::string words, std::string id = {})
      : role(of), text(std::move(words)), messageId(std::move(id)) {}
  Role role = Role::agent;
  std::string text;
  std::string messageId;
};

struct Cost {
  double amount = 0;
  std::string currency = "USD";
};

struct UsageUpdate {
  UsageUpdate() = default;
  UsageUpdate(int64_t inContext, int64_t window, std::optional<Cost> spent = std::nullopt)
      : used(inContext), size(window), cost(std::move(spent)) {}
  int64_t used = 0;  // tokens in context
  int64_t size = 0;  // context window
  std::optional<Cost> cost;  // the session's so far, when its price is known
};

// notice: a live event for the person that is not history (only for clients
// that advertise session.notices).
enum class NoticeSeverity { info, warning, error };
struct Notice {
  NoticeSeverity severity = NoticeSeverity::info;
  std::string title;  // non-empty, plain text
  std::string description;  // omitted when empty
};

// compaction_update: one compaction, by id, as it starts and ends (only for
// clients that advertise session.compaction); part of the session's history.
enum class CompactionStatus { in_progress, completed, failed, cancelled };
struct CompactionUpdate {
  std::string compactionId;
  CompactionStatus status = CompactionStatus::in_progress;
  std::optional<std::string> error;  // failed: why
};
// compaction_summary_chunk: text added to a compaction's summary.
struct CompactionSummaryChunk {
  std::string compactionId;
  std::string text;
};

struct CurrentModeUpdate {
  std::string currentModeId;
};

struct ConfigOptionUpdate {
  std::vector<ConfigOption> configOptions;
};

// session_info_update: metadata of the session (its title), for session lists.
struct SessionInfoUpdate {
  std::optional<std::string> title;
};

// One slash command the editor may offer; `inputHint` set: the command takes
// the text typed after its name (ACP's unstructured input).
struct AvailableCommand {
  std::string name;  // without the leading '/'
  std::string description;
  std::optional<std::string> inputHint;
};

// available_commands_update: the whole set, sent whenever it changes.
struct AvailableCommandsUpdate {
  std::vector<AvailableCommand> availableCommands;
};

enum class PlanEntryStatus { pending, in_progress, completed };
enum class PlanEntryPriority { high, medium, low };

struct PlanEntry {
  std::string content;
  PlanEntryPriority priority = PlanEntryPriority::medium;
  PlanEntryStatus status = PlanEntryStatus::pending;
};

// plan: the whole plan; the editor replaces what it showed.
struct PlanUpdate {
  std::vector<PlanEntry> entries;
};

using SessionUpdate =
    std::variant<MessageChunk, ToolCall, ToolCallUpdate, UsageUpdate, CurrentModeUpdate, ConfigOptionUpdate,
                 SessionInfoUpdate, AvailableCommandsUpdate, PlanUpdate, Notice, CompactionUpdate, CompactionSummaryChunk,
                 SubagentUpdate, SessionMessage, SessionMessageChunk>;

// The params of a session/update notification.
json::Raw sessionNotification(const std::string& sessionId, const SessionUpdate& update);
void writeSessionNotification(json::Writer& w, const std::string& sessionId, const SessionUpdate& update);

}  // namespace lathe::acp
