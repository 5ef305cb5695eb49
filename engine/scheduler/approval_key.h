// What runs without asking, as keys: each key names one thing the person (or
// their settings) allowed, in a stable string form ("shell:git",
// "mcp-server:github", "edit:/w/a.txt") so keys can be stored and read back.
// Remembering is a set union; "already allowed" is a subset test. Values:
// copy freely; not synchronised (the owner locks).
#pragma once

#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/result.h"

namespace lathe::engine {

enum class ApprovalKind {
  tool,         // "tool:<name>": a tool by name (any spelling settings accept for it)
  edit,         // "edit:<absolute path>": edits to one file; "edit:*": edits to any file
  read,         // "read:<absolute path>": reading one file the person keeps from the model
  mcpServer,    // "mcp-server:<server>": every tool of one MCP server
  mcpTool,      // "mcp-tool:<server> <tool>": one MCP tool (each word quoted as a shell would, when needed)
  command,      // "shell:<root>": a command by name, whatever its arguments
  shellPrefix,  // "shell-prefix:<words>": commands starting with these words (quoted as a shell would)
};

struct ApprovalKey {
  ApprovalKind kind = ApprovalKind::tool;
  std::string value;
  auto operator<=>(const ApprovalKey&) const = default;
};

ApprovalKey mcpToolKey(const std::string& server, const std::string& tool);
// "edit:*": held, it covers every edit key (an answer about all edits).
ApprovalKey allEditsKey();
// A shell-prefix key for these words, in the one spelling that reads back to them.
ApprovalKey shellPrefixKey(const std::vector<std::string>& words);
// The words of a shell-prefix key's value.
std::vector<std::string> shellPrefixWords(std::string_view value);

// "kind:value"; parseApprovalKey(formatApprovalKey(k)) == k.
std::string formatApprovalKey(const ApprovalKey& key);
// An error names the text and what is wrong with it (unknown kind, empty
// value, a relative path, a prefix of no words).
Result<ApprovalKey> parseApprovalKey(std::string_view text);

class ApprovalSet {
 public:
  ApprovalSet() = default;
  ApprovalSet(std::initializer_list<ApprovalKey> keys) : keys_(keys) {}

  void add(ApprovalKey key) { keys_.insert(std::move(key)); }
  void add(const std::vector<ApprovalKey>& keys) { keys_.insert(keys.begin(), keys.end()); }
  void add(const ApprovalSet& more) { keys_.insert(more.keys_.begin(), more.keys_.end()); }  // union
  void remove(const ApprovalKey& key) { keys_.erase(key); }
  bool contains(const ApprovalKey& key) const { return keys_.count(key) > 0; }
  // The key is held, or a key that covers it (edit:* covers every edit).
  bool allows(const ApprovalKey& key) const;
  // Every key is allowed. An empty list is never covered: nothing shown, nothing allowed.
  bool covers(const std::vector<ApprovalKey>& keys) const;
  // The values of the keys of one kind, in order.
  std::vector<std::string> valuesOf(ApprovalKind kind) const;
  bool empty() const { return keys_.empty(); }
  const std::set<ApprovalKey>& keys() const { return keys_; }
  bool operator==(const ApprovalSet&) const = default;

 private:
  std::set<ApprovalKey> keys_;
};

}  // namespace lathe::engine
