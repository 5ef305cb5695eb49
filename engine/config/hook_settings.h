// Gemini CLI's hooks as its settings write them: `hooks.<Event>` holds
// definitions (`matcher`, `sequential`, `hooks`: command hooks with `name`,
// `command`, `description`, `timeout` in ms), and `hooksConfig` turns them
// off or some of them. Each definition keeps where it came from (the
// person's settings, a workspace's, an extension), because that decides
// whether it may run unasked (a workspace's waits for consent).
//
// Decoding never breaks a settings file: an unknown event or a bad
// definition is left out and named in `problems` (file, key and what is
// wrong), for the person, while the rest applies. Pure; any thread.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/base/json.h"

namespace lathe::engine {

// Every event Gemini CLI 0.61 fires hooks for.
enum class HookEvent {
  BeforeTool,
  AfterTool,
  BeforeAgent,
  AfterAgent,
  BeforeModel,
  AfterModel,
  BeforeToolSelection,
  SessionStart,
  SessionEnd,
  PreCompress,
  Notification,
};

std::string_view toString(HookEvent event);
std::optional<HookEvent> parseHookEvent(std::string_view name);
// The events whose matcher is a regular expression over the tool name (the
// others compare it with the event's trigger, e.g. "startup").
bool matchesToolNames(HookEvent event);

enum class HookOrigin { user, workspace, extension };

// Where a definition was read: a settings file, or an extension (its name
// and the file its hooks came from).
struct HookSource {
  HookOrigin origin = HookOrigin::user;
  std::string file;
  std::string extension;  // HookOrigin::extension only
  // For the person: the file, or "extension <name> (<file>)".
  std::string describe() const;
};

inline constexpr std::chrono::milliseconds kDefaultHookTimeout{60'000};

struct HookDefinition {
  HookEvent event = HookEvent::BeforeTool;
  std::string matcher;      // empty or "*": every tool or trigger
  bool sequential = false;  // any sequential definition makes the event's hooks run one by one
  std::string name;         // optional
  std::string command;      // a bash command line
  std::string description;  // optional
  std::chrono::milliseconds timeout = kDefaultHookTimeout;
  // Its `env`: set for its command after Gemini CLI's variables (an extension
  // puts its settings' values here).
  std::vector<std::pair<std::string, std::string>> env;
  HookSource source;
  // How the person and hooksConfig.disabled name it: its name, else its command.
  const std::string& label() const { return name.empty() ? command : name; }
};

struct HookSet {
  std::vector<HookDefinition> definitions;
  std::vector<std::string> problems;  // for the person, each naming the file and key
  bool empty() const { return definitions.empty() && problems.empty(); }
  // Appends another source's definitions (and problems) after these.
  void add(HookSet more);
};

// Reads a `hooks` object (a settings file's, or the one an extension's
// hooks/hooks.json holds) as Gemini CLI 0.61 does. This is the one entry
// point for every source: the person's settings (engine/config settings
// rows), a workspace's (workspace_programs.h) and extensions, which call it
// with HookOrigin::extension and add the result to AgentConfig::hooks.
HookSet decodeHooks(const json::Value& hooks, const HookSource& source);

// `hooksConfig`: off altogether, and the hooks it names (by label) off.
struct HookOptions {
  bool enabled = true;
  std::vector<std::string> disabled;
  bool notifications = true;  // tell the person each hook that ran (failures and blocks are always told)
};

}  // namespace lathe::engine
