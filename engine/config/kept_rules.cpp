// Kept answers as policy rules, and rules in words.
#include "engine/config/kept_rules.h"

#include <algorithm>

#include "protocol/base/text.h"
#include "tools/core/shell_words.h"

namespace lathe::engine {
namespace {

constexpr std::string_view kPatternEdge = "\\x00";  // a NUL, as a pattern writes it
constexpr const char* kEditTools[] = {"replace", "write_file"};

// Gemini CLI keeps an answer for the mode it was given in and the more
// permissive ones (plan < default < autoEdit < yolo).
std::vector<std::string> modesFrom(ApprovalMode mode) {
  const ApprovalMode order[] = {ApprovalMode::plan, ApprovalMode::standard, ApprovalMode::autoEdit, ApprovalMode::yolo};
  std::vector<std::string> out;
  bool reached = false;
  for (ApprovalMode m : order) {
    reached = reached || m == mode;
    if (reached) out.emplace_back(toString(m));
  }
  return out;
}

std::string ticked(const std::string& text) { return "`" + text + "`"; }

// "mcp_github_search" of a rule with mcpName github: "search"; "*" for every tool.
std::string mcpToolOf(const std::string& name, const std::string& server) {
  std::string prefix = "mcp_" + server + "_";
  return name.starts_with(prefix) ? name.substr(prefix.size()) : name;
}

}  // namespace

std::string filePathPattern(const std::string& path) {
  return std::string(kPatternEdge) + escapeRegex("\"file_path\":" + jsString(path)) + std::string(kPatternEdge);
}

std::optional<std::string> filePathOfPattern(const std::string& pattern) {
  std::string_view rest = pattern;
  const std::string head = std::string(kPatternEdge) + escapeRegex("\"file_path\":\"");
  const std::string tail = escapeRegex("\"") + std::string(kPatternEdge);
  if (!rest.starts_with(head) || !rest.ends_with(tail) || rest.size() < head.size() + tail.size()) return std::nullopt;
  rest = rest.substr(head.size(), rest.size() - head.size() - tail.size());
  // Undo escapeRegex, then read the JSON string it escaped.
  std::string json = "\"";
  for (size_t i = 0; i < rest.size(); ++i) json += rest[i] == '\\' && i + 1 < rest.size() ? rest[++i] : rest[i];
  json += "\"";
  auto doc = json::parse(json);
  if (!doc || !doc->IsString()) return std::nullopt;
  std::string path(doc->GetString(), doc->GetStringLength());
  if (filePathPattern(path) != pattern) return std::nullopt;  // only what we would write
  return path;
}

Result<std::string> keptRuleFor(const KeptAnswer& answer) {
  std::vector<std::string> commands;
  std::optional<std::string> file;
  std::optional<std::pair<std::string, std::string>> mcp;  // server, tool ("*": every tool)
  std::optional<std::string> tool;
  for (const auto& key : answer.keys) {
    switch (key.kind) {
      case ApprovalKind::command: commands.push_back(key.value); break;
      case ApprovalKind::edit:
        if (key.value == "*") return makeError(Errc::invalid_params, "all edits are allowed for one session at most");
        file = key.value;
        break;
      case ApprovalKind::mcpTool: {
        auto words = shellPrefixWords(key.value);
        mcp = {words.at(0), words.at(1)};
        break;
      }
      case ApprovalKind::mcpServer: mcp = {key.value, "*"}; break;
      case ApprovalKind::tool: tool = key.value; break;
      case ApprovalKind::read:
      case ApprovalKind::shellPrefix:
        return makeError(Errc::invalid_params, "reading what you keep from the model is allowed for one session at most");
    }
  }
  int kinds = !commands.empty() + file.has_value() + mcp.has_value() + tool.has_value();
  if (kinds != 1 || answer.keys.empty()) return makeError(Errc::invalid_params, "nothing to keep");
  return json::buildObject([&](json::Writer& w) {
    if (!commands.empty()) {
      json::put(w, "toolName", "run_shell_command");
      json::array(w, "commandPrefix", [&] {
        for (const auto& command : commands) json::str(w, tools::joinShellWords({command}));
      });
    } else if (file) {
      json::array(w, "toolName", [&] {
        for (const char* name : kEditTools) json::str(w, name);
      });
      json::put(w, "argsPattern", filePathPattern(*file));
    } else if (mcp) {
      json::put(w, "mcpName", mcp->first);
      json::put(w, "toolName", mcp->second);
    } else {
      json::put(w, "toolName", *tool);
    }
    json::put(w, "decision", "allow");
    json::put(w, "priority", kKeptAnswerPriority);
    json::array(w, "modes", [&] {
      for (const auto& mode : modesFrom(answer.mode)) json::str(w, mode);
    });
  });
}

std::string describeRule(const PolicyRule& rule) {
  std::string what;
  std::optional<std::string> file = rule.argsPattern ? filePathOfPattern(rule.argsPattern->pattern()) : std::nullopt;
  if (!rule.commandPrefixes.empty()) {
    std::vector<std::string> prefixes;
    for (const auto& words : rule.commandPrefixes) prefixes.push_back(ticked(tools::joinShellWords(words)));
    what = text::join(prefixes, ", ") + " (shell commands)";
  } else if (file) {
    what = "edits to " + *file;
  } else if (rule.mcpName) {
    const std::string server = *rule.mcpName == "*" ? "any MCP server" : "MCP server " + *rule.mcpName;
    std::vector<std::string> names;
    for (const auto& name : rule.toolNames) {
      std::string tool = mcpToolOf(name, *rule.mcpName);
      names.push_back(tool == "*" || name == "mcp_*" ? "every tool" : ticked(tool));
    }
    what = text::join(names, ", ") + " from " + server;
  } else {
    std::vector<std::string> names;
    for (const auto& name : rule.toolNames) names.push_back(name == "*" ? "every tool" : ticked(name));
    what = text::join(names, ", ");
  }
  if (rule.argsPattern && !file) what += " with arguments matching " + ticked(rule.argsPattern->pattern());
  // Kept answers hold in default mode and more permissive ones: worth saying only when not.
  if (!rule.modes.empty() && std::find(rule.modes.begin(), rule.modes.end(), ApprovalMode::standard) == rule.modes.end()) {
    std::vector<std::string> modes;
    for (ApprovalMode mode : rule.modes) modes.emplace_back(toString(mode));
    what += " (in " + text::join(modes, ", ") + " mode)";
  }
  return what;
}

}  // namespace lathe::engine
