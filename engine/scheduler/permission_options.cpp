// Permission options per confirmation type.
#include "engine/scheduler/permission_options.h"

#include <filesystem>

#include "protocol/base/enum_names.h"
#include "protocol/base/text.h"

namespace lathe::engine {
namespace {

using Kind = acp::PermissionOptionKind;

constexpr const char* kAllowOnce = "allow_once";
constexpr const char* kRejectOnce = "reject_once";

// The option id of each "allow always" answer; clients send them back.
constexpr EnumName<AlwaysScope> kAlwaysIds[] = {
    {AlwaysScope::tool, "allow_always_tool"},       {AlwaysScope::file, "allow_always_file"},
    {AlwaysScope::allEdits, "allow_always_edits"},  {AlwaysScope::mcpTool, "allow_always_mcp_tool"},
    {AlwaysScope::mcpServer, "allow_always_mcp_server"}, {AlwaysScope::command, "allow_always_command"},
};

acp::PermissionOption always(AlwaysScope scope, std::string name) {
  return {nameOf(kAlwaysIds, scope), std::move(name), Kind::allow_always};
}

}  // namespace

// Leaving plan mode: the mode to carry out the plan in, or more planning;
// never "always" (each plan is the person's to approve).
std::vector<acp::PermissionOption> planOptions() {
  return {{"autoEdit", "Yes, and allow edits", Kind::allow_always},
          {"default", "Yes, and ask before each edit", Kind::allow_once},
          {kRejectOnce, "No, keep planning", Kind::reject_once}};
}

std::vector<acp::PermissionOption> permissionOptions(const tools::ConfirmationDetails& details,
                                                     const std::string& toolDisplayName) {
  if (std::holds_alternative<tools::PlanConfirmation>(details)) return planOptions();
  std::vector<acp::PermissionOption> options{{kAllowOnce, "Allow once", Kind::allow_once}};
  if (auto* edit = std::get_if<tools::EditConfirmation>(&details)) {
    std::string file = std::filesystem::path(edit->diff.path).filename().string();
    options.push_back(always(AlwaysScope::file, "Always allow edits to " + file));
    // After the file's option: a client taking the first "always" takes the narrower one.
    options.push_back(always(AlwaysScope::allEdits, "Allow all edits for the rest of this session"));
  } else if (auto* read = std::get_if<tools::ReadConfirmation>(&details)) {
    std::vector<std::string> names;
    for (const auto& file : read->files) names.push_back(std::filesystem::path(file.path).filename().string());
    options.push_back(always(AlwaysScope::file, "Always allow reading " + text::join(names, ", ")));
  } else if (auto* exec = std::get_if<tools::ExecConfirmation>(&details)) {
    if (!exec->rootCommands.empty()) {
      options.push_back(always(AlwaysScope::command, "Always allow " + text::join(exec->rootCommands, ", ")));
    }
  } else if (auto* mcp = std::get_if<tools::McpConfirmation>(&details)) {
    options.push_back(always(AlwaysScope::mcpTool, "Always allow " + mcp->toolName + " from " + mcp->serverName));
    options.push_back(always(AlwaysScope::mcpServer, "Always allow every tool from " + mcp->serverName));
  } else {
    options.push_back(always(AlwaysScope::tool, "Always allow " + toolDisplayName));
  }
  options.push_back({kRejectOnce, "Reject", Kind::reject_once});
  return options;
}

std::optional<PermissionChoice> choiceFor(const std::string& optionId, const tools::ConfirmationDetails& details) {
  for (const auto& option : permissionOptions(details, "")) {
    if (option.optionId != optionId) continue;
    if (std::holds_alternative<tools::PlanConfirmation>(details)) {
      return PermissionChoice{option.kind != Kind::reject_once, std::nullopt};
    }
    if (optionId == kAllowOnce) return PermissionChoice{true, std::nullopt};
    if (optionId == kRejectOnce) return PermissionChoice{false, std::nullopt};
    if (auto scope = valueOf(kAlwaysIds, optionId)) return PermissionChoice{true, scope};
  }
  return std::nullopt;
}

}  // namespace lathe::engine
