// ACP session/update: what the agent streams to the editor during a session.
// Pure.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "protocol/acp/common.h"
#include "protocol/acp/config_options.h"
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

using SessionUpdate = std::variant<MessageChunk, ToolCall, ToolCallUpdate, UsageUpdate, CurrentModeUpdate,
                                   ConfigOptionUpdate, SessionInfoUpdate>;

// The params of a session/update notification.
json::Raw sessionNotification(const std::string& sessionId, const SessionUpdate& update);
void writeSessionNotification(json::Writer& w, const std::string& sessionId, const SessionUpdate& update);

}  // namespace lathe::acp
