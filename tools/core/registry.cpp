// Tool registry.
#include "tools/core/registry.h"

#include "tools/core/wait_for_previous.h"

#include <algorithm>
#include <tuple>

namespace lathe::tools {

bool ToolFilter::allows(const std::string& name) const {
  auto listed = [&](const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  return (core.empty() || listed(core)) && !listed(exclude);
}

Status ToolRegistry::add(std::unique_ptr<Tool> tool, ToolSource source) {
  std::string name = tool->name();
  if (!filter_.allows(name)) return {};
  std::lock_guard lock(mutex_);
  if (tools_.count(name) || aliases_.count(name)) {
    return makeError(Errc::invalid_params, "a tool named \"" + name + "\" is already registered");
  }
  tools_.emplace(std::move(name), Entry{std::shared_ptr<const Tool>(std::move(tool)), std::move(source)});
  ++generation_;
  return {};
}

Status ToolRegistry::addAlias(const std::string& alias, const std::string& name) {
  std::lock_guard lock(mutex_);
  if (tools_.count(alias) || aliases_.count(alias)) {
    return makeError(Errc::invalid_params, "the name \"" + alias + "\" is already taken");
  }
  if (!tools_.count(name)) return makeError(Errc::not_found, "no tool \"" + name + "\" to alias");
  aliases_.emplace(alias, name);
  return {};
}

std::shared_ptr<const Tool> ToolRegistry::find(std::string_view name) const {
  std::lock_guard lock(mutex_);
  auto it = tools_.find(name);
  if (it == tools_.end()) {
    auto alias = aliases_.find(name);
    if (alias == aliases_.end()) return nullptr;
    it = tools_.find(alias->second);
  }
  return it == tools_.end() ? nullptr : it->second.tool;
}

std::optional<ToolSource> ToolRegistry::sourceOf(std::string_view name) const {
  std::lock_guard lock(mutex_);
  auto it = tools_.find(name);
  if (it == tools_.end()) return std::nullopt;
  return it->second.source;
}

std::vector<const ToolRegistry::Entry*> ToolRegistry::ordered() const {
  std::vector<const Entry*> out;
  for (const auto& [name, entry] : tools_) out.push_back(&entry);
  std::stable_sort(out.begin(), out.end(), [](const Entry* a, const Entry* b) {
    return std::tie(a->source.group, a->source.server) < std::tie(b->source.group, b->source.server);
  });
  return out;  // by name within a group: the map's order, kept by the stable sort
}

std::vector<std::shared_ptr<const Tool>> ToolRegistry::all() const {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<const Tool>> out;
  for (const Entry* entry : ordered()) out.push_back(entry->tool);
  return out;
}

std::vector<ToolDeclaration> ToolRegistry::declarations() const {
  std::lock_guard lock(mutex_);
  std::vector<ToolDeclaration> out;
  for (const Entry* entry : ordered()) {
    const ToolInfo& info = entry->tool->info();
    out.push_back({info.name, info.description, withWaitForPrevious(info.parametersSchema)});
  }
  return out;
}

uint64_t ToolRegistry::generation() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

}  // namespace lathe::tools
