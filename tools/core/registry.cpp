// Tool registry.
#include "tools/core/registry.h"

namespace lathe::tools {

Status ToolRegistry::add(std::unique_ptr<Tool> tool) {
  std::string name = tool->name();
  if (tools_.count(name)) return makeError(Errc::invalid_params, "a tool named \"" + name + "\" is already registered");
  tools_.emplace(std::move(name), std::move(tool));
  return {};
}

Status ToolRegistry::addAlias(const std::string& alias, const std::string& name) {
  if (tools_.count(alias) || aliases_.count(alias)) {
    return makeError(Errc::invalid_params, "the name \"" + alias + "\" is already taken");
  }
  if (!tools_.count(name)) return makeError(Errc::not_found, "no tool \"" + name + "\" to alias");
  aliases_.emplace(alias, name);
  return {};
}

const Tool* ToolRegistry::find(std::string_view name) const {
  auto it = tools_.find(name);
  if (it != tools_.end()) return it->second.get();
  auto alias = aliases_.find(name);
  return alias == aliases_.end() ? nullptr : find(alias->second);
}

std::vector<const Tool*> ToolRegistry::all() const {
  std::vector<const Tool*> out;
  for (const auto& [name, tool] : tools_) out.push_back(tool.get());
  return out;
}

json::Raw ToolRegistry::declarations() const {
  if (tools_.empty()) return {};
  return {json::build([&](json::Writer& w) {
    w.StartArray();
    for (const auto& [name, tool] : tools_) tool->writeDeclaration(w);
    w.EndArray();
  })};
}

}  // namespace lathe::tools
