// Approval keys: string form and set operations.
#include "engine/scheduler/approval_key.h"

#include <algorithm>
#include <optional>

#include "protocol/base/enum_names.h"
#include "tools/core/shell_words.h"

namespace lathe::engine {
namespace {

constexpr EnumName<ApprovalKind> kKindNames[] = {
    {ApprovalKind::tool, "tool"},
    {ApprovalKind::edit, "edit"},
    {ApprovalKind::read, "read"},
    {ApprovalKind::mcpServer, "mcp-server"},
    {ApprovalKind::mcpTool, "mcp-tool"},
    {ApprovalKind::command, "shell"},
    {ApprovalKind::shellPrefix, "shell-prefix"},
};

constexpr std::string_view kAnyFile = "*";

Error badKey(std::string_view text, const std::string& why) {
  return makeError(Errc::invalid_params, "approval key \"" + std::string(text) + "\": " + why);
}

}  // namespace

// Two words, not a joined name: "a" + "b__c" and "a__b" + "c" stay apart.
ApprovalKey mcpToolKey(const std::string& server, const std::string& tool) {
  return {ApprovalKind::mcpTool, tools::joinShellWords({server, tool})};
}

ApprovalKey allEditsKey() { return {ApprovalKind::edit, std::string(kAnyFile)}; }

ApprovalKey shellPrefixKey(const std::vector<std::string>& words) {
  return {ApprovalKind::shellPrefix, tools::joinShellWords(words)};
}

std::vector<std::string> shellPrefixWords(std::string_view value) { return tools::splitShellWords(value).words; }

std::string formatApprovalKey(const ApprovalKey& key) {
  return std::string(nameOf(kKindNames, key.kind)) + ":" + key.value;
}

Result<ApprovalKey> parseApprovalKey(std::string_view text) {
  size_t colon = text.find(':');
  if (colon == std::string_view::npos) return badKey(text, "expected kind:value");
  std::string_view name = text.substr(0, colon);
  std::optional<ApprovalKind> kind = valueOf(kKindNames, name);
  if (!kind) {
    std::string known;
    for (const auto& e : kKindNames) known += (known.empty() ? "" : ", ") + std::string(e.name);
    return badKey(text, "unknown kind \"" + std::string(name) + "\" (known: " + known + ")");
  }
  ApprovalKey key{*kind, std::string(text.substr(colon + 1))};
  if (key.value.empty()) return badKey(text, "the value is empty");
  if (key.kind == ApprovalKind::edit && key.value.front() != '/' && key.value != kAnyFile) {
    return badKey(text, "an edit key names an absolute path, or * for every file");
  }
  if (key.kind == ApprovalKind::mcpTool) {
    auto words = shellPrefixWords(key.value);
    if (words.size() != 2) return badKey(text, "an MCP tool key names the server and the tool");
    return mcpToolKey(words[0], words[1]);
  }
  if (key.kind == ApprovalKind::shellPrefix) {
    auto words = shellPrefixWords(key.value);
    if (words.empty()) return badKey(text, "a shell prefix needs at least one word");
    return shellPrefixKey(words);
  }
  return key;
}

bool ApprovalSet::allows(const ApprovalKey& key) const {
  return contains(key) || (key.kind == ApprovalKind::edit && contains(allEditsKey()));
}

bool ApprovalSet::covers(const std::vector<ApprovalKey>& keys) const {
  return !keys.empty() && std::all_of(keys.begin(), keys.end(), [&](const ApprovalKey& key) { return allows(key); });
}

std::vector<std::string> ApprovalSet::valuesOf(ApprovalKind kind) const {
  std::vector<std::string> values;
  for (auto it = keys_.lower_bound({kind, ""}); it != keys_.end() && it->kind == kind; ++it) values.push_back(it->value);
  return values;
}

}  // namespace lathe::engine
