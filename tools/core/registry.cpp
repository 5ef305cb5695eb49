// Tool registry.
#include "tools/core/registry.h"

#include "tools/core/wait_for_previous.h"

#include <algorithm>
#include <tuple>

namespace lathe::tools {

namespace {

// Gemini CLI's cleaning of `mcp_<server>_<tool>`: characters model APIs refuse become '_'.
std::string cleanedGeminiName(const ToolSource& source) {
  std::string name = "mcp_" + source.server + "_" + source.tool;
  for (char& c : name) {
    bool fine = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
                c == '.' || c == ':';
    if (!fine) c = '_';
  }
  return name;
}

}  // namespace

bool settingNamesTool(std::string_view entry, std::string_view name, const ToolSource& source) {
  if (entry == name) return true;
  if (source.group != ToolSource::Group::mcp) return false;
  return entry == source.server + "__" + source.tool || entry == "mcp_" + source.server + "_" + source.tool ||
         entry == cleanedGeminiName(source);
}

bool ToolFilter::allows(const std::string& name, const ToolSource& source) const {
  bool inCore = core.empty() || source.group != ToolSource::Group::builtin ||
                std::find(core.begin(), core.end(), name) != core.end();
  bool excluded = std::any_of(exclude.begin(), exclude.end(),
                              [&](const std::string& entry) { return settingNamesTool(entry, name, source); });
  return inCore && !excluded;
}

Status ToolRegistry::add(std::unique_ptr<Tool> tool, ToolSource source) {
  return addShared(std::shared_ptr<const Tool>(std::move(tool)), std::move(source));
}

Status ToolRegistry::addShared(std::shared_ptr<const Tool> tool, ToolSource source) {
  std::string name = tool->name();
  if (!filter_.allows(name, source)) return {};
  std::lock_guard lock(mutex_);
  if (tools_.count(name) || aliases_.count(name)) {
    return makeError(Errc::invalid_params, "a tool named \"" + name + "\" is already registered");
  }
  tools_.emplace(std::move(name), Entry{std::move(tool), std::move(source)});
  ++generation_;
  return {};
}

std::vector<std::string> ToolRegistry::replaceServerTools(
    const std::string& server, std::vector<std::pair<std::unique_ptr<Tool>, ToolSource>> tools) {
  std::vector<std::string> refused;
  std::lock_guard lock(mutex_);
  for (auto it = tools_.begin(); it != tools_.end();) {
    bool ours = it->second.source.group == ToolSource::Group::mcp && it->second.source.server == server;
    it = ours ? tools_.erase(it) : std::next(it);
  }
  for (auto& [tool, source] : tools) {
    std::string name = tool->name();
    if (!filter_.allows(name)) continue;
    if (tools_.count(name) || aliases_.count(name)) {
      refused.push_back(std::move(name));
      continue;
    }
    tools_.emplace(std::move(name), Entry{std::shared_ptr<const Tool>(std::move(tool)), std::move(source)});
  }
  ++generation_;
  return refused;
}

bool ToolRegistry::remove(std::string_view name) {
  std::lock_guard lock(mutex_);
  auto it = tools_.find(name);
  if (it == tools_.end()) return false;
  tools_.erase(it);
  std::erase_if(aliases_, [&](const auto& alias) { return alias.second == name; });
  ++generation_;
  return true;
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

std::vector<std::pair<std::shared_ptr<const Tool>, ToolSource>> ToolRegistry::entries() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::shared_ptr<const Tool>, ToolSource>> out;
  for (const Entry* entry : ordered()) out.emplace_back(entry->tool, entry->source);
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
