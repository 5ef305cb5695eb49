// The names MCP tools get in front of the model: `<server>__<tool>`, cleaned
// to what model APIs accept ([A-Za-z0-9_.:-], at most 63 characters, starting
// with a letter or '_'). Names are only ever made, never parsed back: the
// registry keeps each name's (server, tool). Pure; any thread.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace lathe::tools::mcp {

inline constexpr size_t kMaxToolNameLength = 63;

// The plain name for a server's tool.
std::string mcpToolName(std::string_view server, std::string_view tool);

// The name to register under when `taken` says names are in use: the plain
// name when free, else the plain name cut short with a suffix derived from
// (server, tool) alone, so a given pair always gets the same fallback.
std::string uniqueMcpToolName(std::string_view server, std::string_view tool,
                              const std::function<bool(const std::string&)>& taken);

}  // namespace lathe::tools::mcp
