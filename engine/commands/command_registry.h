// The slash commands of one session, by name. Commands can be added and
// removed while the session runs (an MCP server's prompts arriving). Once
// announce() was called (after the editor has the session: session/new,
// load, resume), every change sends the whole set to the listener, which
// forwards it to the editor as available_commands_update; changes are sent
// in the order they happened. Thread-safe; the listener is called with the
// registry's lock held and must not call back into it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/commands/slash_command.h"
#include "protocol/acp/updates.h"

namespace lathe::engine {

class CommandRegistry {
 public:
  using Listener = std::function<void(const acp::AvailableCommandsUpdate&)>;

  explicit CommandRegistry(Listener listener = {}) : listener_(std::move(listener)) {}

  // Fails on a bad or taken name, or without a handler.
  Status add(SlashCommand command);
  // False when no command has that name.
  bool remove(std::string_view name);
  // Replaces every command of `group` in one change; returns the names left
  // out (bad, or held by another group's command), with the reason.
  std::vector<std::string> replaceGroup(const std::string& group, std::vector<SlashCommand> commands);

  // The command of that name; shared so it outlives a removal while it runs.
  std::shared_ptr<const SlashCommand> find(std::string_view name) const;
  std::vector<std::shared_ptr<const SlashCommand>> all() const;  // by name
  bool has(std::string_view name) const { return find(name) != nullptr; }

  // From now on the editor knows the session: sends the set, and every change after.
  void announce();

 private:
  void changedLocked();
  acp::AvailableCommandsUpdate updateLocked() const;
  static bool sameCommands(const acp::AvailableCommandsUpdate& a, const acp::AvailableCommandsUpdate& b);

  Listener listener_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const SlashCommand>, std::less<>> commands_;
  bool announced_ = false;
};

}  // namespace lathe::engine
