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

struct MessageChunk {
  enum class Role { agent, thought, user } role = Role::agent;
  std::string text;
};

struct UsageUpdate {
  int64_t used = 0;  // tokens in context
  int64_t size = 0;  // context window
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

using SessionUpdate = std::variant<MessageChunk, ToolCall, ToolCallUpdate, UsageUpdate, CurrentModeUpdate,
                                   ConfigOptionUpdate, SessionInfoUpdate, AvailableCommandsUpdate, PlanUpdate,
                                   SubagentUpdate, SessionMessage, SessionMessageChunk>;

// The params of a session/update notification.
json::Raw sessionNotification(const std::string& sessionId, const SessionUpdate& update);
void writeSessionNotification(json::Writer& w, const std::string& sessionId, const SessionUpdate& update);

}  // namespace lathe::acp
