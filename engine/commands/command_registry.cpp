// A session's slash commands.
#include "engine/commands/command_registry.h"

#include <algorithm>
#include <cctype>

namespace lathe::engine {

bool validCommandName(std::string_view name) {
  if (name.empty() || name.size() > 128) return false;
  for (unsigned char c : name) {
    if (!std::isalnum(c) && c != '_' && c != '.' && c != ':' && c != '-') return false;
  }
  return true;
}

Status CommandRegistry::add(SlashCommand command) {
  if (!validCommandName(command.name)) return makeError(Errc::invalid_params, "not a command name: \"" + command.name + "\"");
  if (!command.handler) return makeError(Errc::invalid_params, "command /" + command.name + " has no handler");
  std::lock_guard lock(mutex_);
  if (commands_.count(command.name)) return makeError(Errc::invalid_params, "a command /" + command.name + " exists already");
  std::string name = command.name;
  commands_.emplace(std::move(name), std::make_shared<const SlashCommand>(std::move(command)));
  changedLocked();
  return {};
}

bool CommandRegistry::remove(std::string_view name) {
  std::lock_guard lock(mutex_);
  auto it = commands_.find(name);
  if (it == commands_.end()) return false;
  commands_.erase(it);
  changedLocked();
  return true;
}

std::vector<std::string> CommandRegistry::replaceGroup(const std::string& group, std::vector<SlashCommand> commands) {
  std::vector<std::string> refused;
  std::lock_guard lock(mutex_);
  const acp::AvailableCommandsUpdate before = updateLocked();
  std::erase_if(commands_, [&](const auto& entry) { return entry.second->group == group; });
  for (auto& command : commands) {
    command.group = group;
    if (!validCommandName(command.name) || !command.handler) {
      refused.push_back(command.name + " (not a valid command)");
      continue;
    }
    if (commands_.count(command.name)) {
      refused.push_back(command.name + " (the name is taken)");
      continue;
    }
    std::string name = command.name;
    commands_.emplace(std::move(name), std::make_shared<const SlashCommand>(std::move(command)));
  }
  // A re-list that changed nothing the editor shows (a server reconnecting) sends nothing.
  if (!sameCommands(before, updateLocked())) changedLocked();
  return refused;
}

std::shared_ptr<const SlashCommand> CommandRegistry::find(std::string_view name) const {
  std::lock_guard lock(mutex_);
  auto it = commands_.find(name);
  return it == commands_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const SlashCommand>> CommandRegistry::all() const {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<const SlashCommand>> out;
  for (const auto& [name, command] : commands_) out.push_back(command);
  return out;
}

void CommandRegistry::announce() {
  std::lock_guard lock(mutex_);
  announced_ = true;
  if (listener_) listener_(updateLocked());
}

acp::AvailableCommandsUpdate CommandRegistry::updateLocked() const {
  acp::AvailableCommandsUpdate update;
  for (const auto& [name, command] : commands_) {
    update.availableCommands.push_back({command->name, command->description, command->inputHint});
  }
  return update;
}

void CommandRegistry::changedLocked() {
  if (announced_ && listener_) listener_(updateLocked());
}

bool CommandRegistry::sameCommands(const acp::AvailableCommandsUpdate& a, const acp::AvailableCommandsUpdate& b) {
  auto same = [](const acp::AvailableCommand& x, const acp::AvailableCommand& y) {
    return x.name == y.name && x.description == y.description && x.inputHint == y.inputHint;
  };
  return std::equal(a.availableCommands.begin(), a.availableCommands.end(), b.availableCommands.begin(),
                    b.availableCommands.end(), same);
}

}  // namespace lathe::engine
