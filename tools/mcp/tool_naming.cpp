// MCP tool naming.
#include "tools/mcp/tool_naming.h"

#include <cstdint>
#include <cstdio>

namespace lathe::tools::mcp {
namespace {

bool allowed(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == ':' || c == '-';
}

bool validStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

// FNV-1a: stable across runs and platforms, unlike std::hash.
uint32_t fnv1a(std::string_view text, uint32_t hash = 2166136261u) {
  for (unsigned char c : text) hash = (hash ^ c) * 16777619u;
  return hash;
}

std::string withSuffix(std::string name, uint32_t hash) {
  char suffix[10];
  std::snprintf(suffix, sizeof suffix, "_%06x", static_cast<unsigned>(hash & 0xffffff));
  size_t keep = kMaxToolNameLength - 7;
  if (name.size() > keep) name.resize(keep);
  return name + suffix;
}

}  // namespace

std::string mcpToolName(std::string_view server, std::string_view tool) {
  std::string name;
  name.reserve(server.size() + tool.size() + 3);
  name.append(server).append("__").append(tool);
  for (char& c : name) {
    if (!allowed(c)) c = '_';
  }
  if (name.empty() || !validStart(name.front())) name.insert(name.begin(), '_');
  if (name.size() > kMaxToolNameLength) {
    // Keep both ends: the server's alias leads, the tool's own name ends it.
    const size_t head = 31, tail = kMaxToolNameLength - head - 2;
    name = name.substr(0, head) + "__" + name.substr(name.size() - tail);
  }
  return name;
}

std::string uniqueMcpToolName(std::string_view server, std::string_view tool,
                              const std::function<bool(const std::string&)>& taken) {
  std::string plain = mcpToolName(server, tool);
  if (!taken(plain)) return plain;
  uint32_t hash = fnv1a(tool, fnv1a(std::string_view("\0", 1), fnv1a(server)));
  for (uint32_t round = 0;; ++round) {
    std::string candidate = withSuffix(plain, hash);
    if (!taken(candidate)) return candidate;
    hash = fnv1a(std::string_view(reinterpret_cast<const char*>(&round), sizeof round), hash);
  }
}

}  // namespace lathe::tools::mcp
