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

// The option ids of "always" answers ("allow_always_file",
// "allow_workspace_command", ...); clients send them back.
constexpr EnumName<AlwaysScope> kScopeIds[] = {
    {AlwaysScope::tool, "tool"},         {AlwaysScope::file, "file"},         {AlwaysScope::allEdits, "edits"},
    {AlwaysScope::mcpTool, "mcp_tool"}, {AlwaysScope::mcpServer, "mcp_server"}, {AlwaysScope::command, "command"},
};
constexpr EnumName<Lasting> kLastingIds[] = {
    {Lasting::session, "allow_always_"},
    {Lasting::workspace, "allow_workspace_"},
    {Lasting::everywhere, "allow_everywhere_"},
};

// One "always" answer: what it covers, in words, and for which lengths.
struct Always {
  AlwaysScope scope;
  std::string what;  // "edits to main.cpp", "git, ls"
  bool keepable = true;  // may be kept beyond the session (edits to every file, reads of secrets may not)
  bool anyWorkspace = true;  // may be kept for every workspace (a file belongs to one)
};

std::vector<Always> alwaysChoices(const tools::ConfirmationDetails& details, const std::string& toolDisplayName) {
  if (auto* edit = std::get_if<tools::EditConfirmation>(&details)) {
    std::string file = std::filesystem::path(edit->diff.path).filename().string();
    // After the file's: a client taking the first "always" takes the narrower one.
    return {{AlwaysScope::file, "edits to " + file, true, false}, {AlwaysScope::allEdits, "all edits", false, false}};
  }
  if (auto* read = std::get_if<tools::ReadConfirmation>(&details)) {
    std::vector<std::string> names;
    for (const auto& file : read->files) names.push_back(std::filesystem::path(file.path).filename().string());
    return {{AlwaysScope::file, "reading " + text::join(names, ", "), false, false}};
  }
  if (auto* exec = std::get_if<tools::ExecConfirmation>(&details)) {
    if (exec->rootCommands.empty()) return {};
    return {{AlwaysScope::command, text::join(exec->rootCommands, ", ")}};
  }
  if (auto* mcp = std::get_if<tools::McpConfirmation>(&details)) {
    return {{AlwaysScope::mcpTool, mcp->toolName + " from " + mcp->serverName},
            {AlwaysScope::mcpServer, "every tool from " + mcp->serverName, true, false}};
  }
  return {{AlwaysScope::tool, toolDisplayName}};
}

std::string optionId(Lasting lasting, AlwaysScope scope) {
  return std::string(nameOf(kLastingIds, lasting)) + nameOf(kScopeIds, scope);
}

acp::PermissionOption option(Lasting lasting, const Always& always) {
  std::string name = lasting == Lasting::session      ? "Allow " + always.what + " for this session"
                     : lasting == Lasting::workspace ? "Always allow " + always.what + " in this workspace"
                                                     : "Always allow " + always.what + " in every workspace";
  return {optionId(lasting, always.scope), std::move(name), Kind::allow_always};
}

}  // namespace

std::vector<acp::PermissionOption> permissionOptions(const tools::ConfirmationDetails& details,
                                                     const std::string& toolDisplayName, AlwaysOffers offers) {
  std::vector<acp::PermissionOption> options{{kAllowOnce, "Allow once", Kind::allow_once}};
  const std::vector<Always> choices = alwaysChoices(details, toolDisplayName);
  for (const auto& always : choices) {
    if (offers.session) options.push_back(option(Lasting::session, always));
  }
  for (const auto& always : choices) {
    if (offers.workspace && always.keepable) options.push_back(option(Lasting::workspace, always));
  }
  for (const auto& always : choices) {
    if (offers.everywhere && always.keepable && always.anyWorkspace) options.push_back(option(Lasting::everywhere, always));
  }
  options.push_back({kRejectOnce, "Reject", Kind::reject_once});
  return options;
}

std::optional<PermissionChoice> choiceFor(const std::string& id, const tools::ConfirmationDetails& details,
                                          AlwaysOffers offers) {
  for (const auto& option : permissionOptions(details, "", offers)) {
    if (option.optionId != id) continue;
    if (id == kAllowOnce) return PermissionChoice{true, std::nullopt, Lasting::session};
    if (id == kRejectOnce) return PermissionChoice{false, std::nullopt, Lasting::session};
    for (const auto& lasting : kLastingIds) {
      std::string_view prefix = lasting.name;
      if (!id.starts_with(prefix)) continue;
      if (auto scope = valueOf(kScopeIds, std::string_view(id).substr(prefix.size()))) {
        return PermissionChoice{true, scope, lasting.value};
      }
    }
  }
  return std::nullopt;
}

}  // namespace lathe::engine
