// Permission options per confirmation type.
#include "engine/scheduler/permission_options.h"
#include "protocol/base/text.h"

#include <filesystem>

namespace lathe::engine {
namespace {

using Kind = acp::PermissionOptionKind;

}  // namespace

std::vector<acp::PermissionOption> permissionOptions(const tools::ConfirmationDetails& details,
                                                     const std::string& toolDisplayName) {
  std::vector<acp::PermissionOption> options{{"allow_once", "Allow once", Kind::allow_once}};
  if (auto* edit = std::get_if<tools::EditConfirmation>(&details)) {
    std::string file = std::filesystem::path(edit->diff.path).filename().string();
    options.push_back({"allow_always_file", "Always allow edits to " + file, Kind::allow_always});
  } else if (auto* read = std::get_if<tools::ReadConfirmation>(&details)) {
    std::vector<std::string> names;
    for (const auto& file : read->files) names.push_back(std::filesystem::path(file.path).filename().string());
    options.push_back({"allow_always_file", "Always allow reading " + text::join(names, ", "), Kind::allow_always});
  } else if (auto* exec = std::get_if<tools::ExecConfirmation>(&details)) {
    if (!exec->rootCommands.empty()) {
      options.push_back({"allow_always_command", "Always allow " + text::join(exec->rootCommands, ", "), Kind::allow_always});
    }
  } else if (auto* mcp = std::get_if<tools::McpConfirmation>(&details)) {
    options.push_back({"allow_always_mcp_tool", "Always allow " + mcp->toolName + " from " + mcp->serverName,
                       Kind::allow_always});
  } else {
    options.push_back({"allow_always_tool", "Always allow " + toolDisplayName, Kind::allow_always});
  }
  options.push_back({"reject_once", "Reject", Kind::reject_once});
  return options;
}

std::optional<PermissionChoice> choiceFor(const std::string& optionId, const tools::ConfirmationDetails& details) {
  for (const auto& option : permissionOptions(details, "")) {
    if (option.optionId != optionId) continue;
    if (optionId == "allow_once") return PermissionChoice{true, std::nullopt};
    if (optionId == "reject_once") return PermissionChoice{false, std::nullopt};
    if (optionId == "allow_always_file") return PermissionChoice{true, AlwaysScope::file};
    if (optionId == "allow_always_command") return PermissionChoice{true, AlwaysScope::command};
    if (optionId == "allow_always_mcp_tool") return PermissionChoice{true, AlwaysScope::mcpTool};
    if (optionId == "allow_always_tool") return PermissionChoice{true, AlwaysScope::tool};
  }
  return std::nullopt;
}

}  // namespace lathe::engine
