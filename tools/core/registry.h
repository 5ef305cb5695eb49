// The tool registry of one session: built-in, discovered and MCP tools, found
// by name, declared to the model built-ins first, then discovered tools, then
// MCP tools (by server), each group by name. Tools can be added while the
// session runs (an MCP server connecting); generation() changes whenever the
// set does, so declarations are recomputed. Thread-safe; tools are shared, so
// one found by a running call stays alive while it runs.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <utility>

#include "protocol/base/result.h"
#include "tools/core/tool.h"
#include "tools/core/tool_declaration.h"

namespace lathe::tools {

// Where a tool comes from; the order of the groups is the order the model sees.
struct ToolSource {
  enum class Group { builtin, discovered, mcp } group = Group::builtin;
  std::string server;  // the MCP server's name, for Group::mcp
  std::string tool;    // the server's own name for the tool (never parsed back from ours)
  std::string annotations{};  // an MCP tool's annotations object as JSON text (policy rules match them); empty: none
};

// True when a settings entry (tools.exclude, tools.allowed) names this tool:
// by its registered name, or an MCP tool as `<server>__<tool>` or Gemini CLI's
// `mcp_<server>_<tool>` (raw or cleaned as Gemini CLI cleans it), matched
// against the source, never parsed back from a name.
bool settingNamesTool(std::string_view entry, std::string_view name, const ToolSource& source);

// Settings tools.core (only these built-ins, when not empty) and tools.exclude.
struct ToolFilter {
  std::vector<std::string> core;
  std::vector<std::string> exclude;
  bool allows(const std::string& name, const ToolSource& source = {}) const;
};

class ToolRegistry {
 public:
  explicit ToolRegistry(ToolFilter filter = {}) : filter_(std::move(filter)) {}

  // Fails on a duplicate name; a tool the filter leaves out is dropped quietly.
  Status add(std::unique_ptr<Tool> tool, ToolSource source = {});
  // The same with a tool another registry holds too (a sub-agent's session
  // shares its parent's tools).
  Status addShared(std::shared_ptr<const Tool> tool, ToolSource source = {});
  // Replaces every tool of the MCP server `server` in one step (a re-list),
  // each with its source; returns the names left out because another tool
  // holds them. Bumps generation().
  std::vector<std::string> replaceServerTools(const std::string& server,
                                              std::vector<std::pair<std::unique_ptr<Tool>, ToolSource>> tools);
  // Takes a tool out (activate_skill, when the skills change); false when
  // none has that name. Bumps generation().
  bool remove(std::string_view name);
  // Another name the model may call a registered tool by (never declared).
  Status addAlias(const std::string& alias, const std::string& name);

  std::shared_ptr<const Tool> find(std::string_view name) const;
  std::optional<ToolSource> sourceOf(std::string_view name) const;
  std::vector<std::shared_ptr<const Tool>> all() const;  // in declaration order
  // Every tool with its source, in declaration order.
  std::vector<std::pair<std::shared_ptr<const Tool>, ToolSource>> entries() const;
  std::vector<ToolDeclaration> declarations() const;     // in declaration order
  uint64_t generation() const;

 private:
  struct Entry {
    std::shared_ptr<const Tool> tool;
    ToolSource source;
  };
  std::vector<const Entry*> ordered() const;  // mutex_ held

  ToolFilter filter_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> tools_;
  std::map<std::string, std::string, std::less<>> aliases_;
  uint64_t generation_ = 0;
};

}  // namespace lathe::tools
