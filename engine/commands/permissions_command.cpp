// /permissions and /permissions revoke N. Runs on the turn's thread.
#include "engine/commands/permissions_command.h"

#include <charconv>
#include <variant>

#include "engine/config/kept_rules.h"
#include "protocol/base/text.h"

namespace lathe::engine {
namespace {

// One line of the list, and what revoking it means.
struct Permission {
  std::string what;   // the command, file or tool
  std::string where;  // where it comes from
  std::variant<std::monostate, KeptAnswersStore::Entry, ApprovalKey> revocable;  // kept, or this session's answer
};

struct Section {
  const char* title;
  std::vector<Permission> items;
};

std::string ticked(const std::string& text) { return "`" + text + "`"; }

std::string describeKey(const ApprovalKey& key) {
  switch (key.kind) {
    case ApprovalKind::tool: return ticked(key.value);
    case ApprovalKind::edit: return key.value == "*" ? "all edits" : "edits to " + key.value;
    case ApprovalKind::read: return "reading " + key.value;
    case ApprovalKind::mcpServer: return "every tool from MCP server " + key.value;
    case ApprovalKind::mcpTool: {
      auto words = shellPrefixWords(key.value);
      return words.size() == 2 ? ticked(words[1]) + " from MCP server " + words[0] : ticked(key.value);
    }
    case ApprovalKind::command: return ticked(key.value) + " (shell commands)";
    case ApprovalKind::shellPrefix: return ticked(key.value) + " (shell commands starting so)";
  }
  return key.value;
}

std::vector<Section> gather(Session& session, KeptAnswersStore* kept) {
  std::vector<Section> sections{{"Kept from earlier answers (later sessions too)", {}},
                                {"Policy files", {}},
                                {"Settings", {}},
                                {"This session only", {}}};
  std::vector<std::string> keptFiles;
  if (kept) {
    keptFiles = {kept->files().workspace, kept->files().everywhere};
    for (auto& entry : kept->list()) {
      std::string where = entry.where == Lasting::workspace ? "in this workspace (" + entry.rule.origin.file + ")"
                                                             : "in every workspace (" + entry.rule.origin.file + ")";
      sections[0].items.push_back({describeRule(entry.rule), std::move(where), std::move(entry)});
    }
  }
  SessionApprovals approvals = session.approvals();
  for (const auto& set : approvals.policies) {
    if (!set) continue;
    for (const auto& rule : set->rules) {
      if (rule.decision != PolicyDecision::allow) continue;
      if (std::find(keptFiles.begin(), keptFiles.end(), rule.origin.file) != keptFiles.end()) continue;
      sections[1].items.push_back({describeRule(rule), rule.origin.whose() + " " + rule.origin.describe(), {}});
    }
  }
  ApprovalSet answers = session.sessionAnswers();
  for (const auto& key : approvals.allowed.keys()) {
    if (answers.contains(key)) continue;
    sections[2].items.push_back({describeKey(key), key.kind == ApprovalKind::mcpServer ? "mcp.allowed, or trust: true"
                                                                                       : "tools.allowed",
                                 {}});
  }
  for (const auto& key : answers.keys()) sections[3].items.push_back({describeKey(key), "your answer", key});
  return sections;
}

std::string listText(const std::vector<Section>& sections) {
  std::string text;
  int number = 0;
  for (const auto& section : sections) {
    if (section.items.empty()) continue;
    text += "\n\n**" + std::string(section.title) + "**";
    for (const auto& item : section.items) {
      text += "\n" + std::to_string(++number) + ". " + item.what + " — " + item.where;
    }
  }
  if (number == 0) {
    return "Nothing is allowed without asking beyond what the mode allows. An \"always\" answer, a policy file "
           "(~/.gemini/policies/*.toml) or settings tools.allowed would be listed here.";
  }
  return "Allowed without asking:" + text +
         "\n\n`/permissions revoke N` removes a kept answer or one of this session's; policy files and settings are "
         "changed where they are written.";
}

Result<CommandOutcome> revoke(Session& session, KeptAnswersStore* kept, std::string_view number,
                              const CommandContext& context) {
  int n = 0;
  auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), n);
  if (number.empty() || error != std::errc{} || end != number.data() + number.size() || n < 1) {
    return makeError(Errc::invalid_params, "usage: /permissions revoke N (N from the numbered list of /permissions)");
  }
  int at = 0;
  for (auto& section : gather(session, kept)) {
    for (auto& item : section.items) {
      if (++at != n) continue;
      if (auto* entry = std::get_if<KeptAnswersStore::Entry>(&item.revocable)) {
        auto revoked = kept->revoke(*entry);
        if (!revoked) return makeError(revoked.error().code, "Not revoked: " + revoked.error().message);
        context.say(*revoked);
      } else if (auto* key = std::get_if<ApprovalKey>(&item.revocable)) {
        session.forgetAnswer(*key);
        context.say("Revoked: " + item.what + " is asked about again in this session.");
      } else {
        return makeError(Errc::invalid_params, std::to_string(n) + ". " + item.what + " comes from " + item.where +
                                                   ": change it there.");
      }
      return CommandOutcome::done();
    }
  }
  return makeError(Errc::invalid_params, "there is no " + std::to_string(n) + " in the list (/permissions shows it)");
}

Result<CommandOutcome> run(Session& session, KeptAnswersStore* kept, const CommandContext& context) {
  std::string_view input = context.input;
  if (input.empty() || input == "list") {
    context.say(listText(gather(session, kept)));
    return CommandOutcome::done();
  }
  if (input.starts_with("revoke")) {
    std::string_view rest = input.substr(6);
    if (rest.empty() || rest.front() == ' ') return revoke(session, kept, text::trim(rest), context);
  }
  return makeError(Errc::invalid_params, "usage: /permissions, or /permissions revoke N");
}

}  // namespace

void addPermissionsCommand(Session& session, CommandRegistry& commands, std::shared_ptr<KeptAnswersStore> kept) {
  Session* owner = &session;  // the command lives and dies with the session
  (void)commands.add(SlashCommand{
      "permissions", "List what runs without asking and where it comes from; revoke N removes one",
      std::string("[revoke N]"),
      [owner, kept](const CommandContext& context) { return run(*owner, kept.get(), context); }, "permissions"});
}

}  // namespace lathe::engine
