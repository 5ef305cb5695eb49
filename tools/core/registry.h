// The tool registry of one session: built-ins plus discovered tools, found by
// name, declared to the model in a stable order. Filled at session start, then
// read-only (any thread).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/json.h"
#include "protocol/base/result.h"
#include "tools/core/tool.h"

namespace lathe::tools {

class ToolRegistry {
 public:
  // Fails on a duplicate name.
  Status add(std::unique_ptr<Tool> tool);
  // Another name the model may call a registered tool by (never declared).
  Status addAlias(const std::string& alias, const std::string& name);
  const Tool* find(std::string_view name) const;
  std::vector<const Tool*> all() const;  // sorted by name
  bool empty() const { return tools_.empty(); }

  // A JSON array of function declarations, sorted by name.
  json::Raw declarations() const;

 private:
  std::map<std::string, std::unique_ptr<Tool>, std::less<>> tools_;
  std::map<std::string, std::string, std::less<>> aliases_;
};

}  // namespace lathe::tools
