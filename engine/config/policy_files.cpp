// Reading Gemini CLI policy files.
#include "engine/config/policy_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "protocol/formats/toml.h"
#include "tools/core/shell_words.h"

namespace lathe::engine {
namespace {

constexpr size_t kMaxPolicyFileBytes = 1 << 20;
constexpr size_t kMaxPatternLength = 2048;
constexpr const char* kShellTool = "run_shell_command";

// The keys a rule may have: Gemini CLI 0.61's schema, its deprecated
// snake_case spellings, and `name` (a label its own policy files use).
const std::set<std::string, std::less<>> kRuleKeys = {
    "toolName", "subagent",    "mcpName",          "argsPattern",       "commandPrefix", "commandRegex",
    "decision", "priority",    "modes",            "interactive",       "toolAnnotations", "allowRedirection",
    "allow_redirection",       "denyMessage",      "deny_message",      "name",
};

// A string or a list of strings; empty when absent.
std::vector<std::string> stringOrList(json::Reader& rule, const char* key) {
  if (!rule.has(key)) return {};
  const json::Value* v = json::find(*rule.value(), key);
  if (v->IsString()) return {std::string(v->GetString(), v->GetStringLength())};
  auto list = rule.optStrings(key);
  if (rule.ok() && list && list->empty()) rule.fail(rule.path() + "." + key, "expected at least one name");
  return list.value_or(std::vector<std::string>{});
}

Result<Regex> compilePattern(const std::string& pattern) {
  if (!safePattern(pattern)) {
    return makeError(Errc::invalid_params, "the pattern could take very long to match (nested quantifiers, or over " +
                                               std::to_string(kMaxPatternLength) + " characters), so it is refused");
  }
  return Regex::compile(pattern);
}

// Gemini CLI's name for an MCP tool given as a server and a tool name.
std::string mcpToolName(const std::string& server, const std::string& tool) {
  if (server == "*") return tool == "*" ? "mcp_*" : "mcp_*_" + tool;
  return tool == "*" ? "mcp_" + server + "_*" : "mcp_" + server + "_" + tool;
}

// One [[rule]] table; problems go on the reader.
PolicyRule readRule(json::Reader& rule, const formats::LocatedDocument& doc, PolicyTier tier, const std::string& owner,
                    int number) {
  PolicyRule out;
  out.origin = {tier, doc.source, doc.lineOf(rule.path()), number, owner, rule.optStr("name").value_or("")};
  if (!rule.expectObject()) return out;
  for (const auto& member : rule.value()->GetObject()) {
    std::string_view key(member.name.GetString(), member.name.GetStringLength());
    if (!kRuleKeys.count(key)) rule.fail(rule.path() + "." + std::string(key), "not a policy rule key");
  }
  std::vector<std::string> tools = stringOrList(rule, "toolName");
  out.subagent = rule.optStr("subagent");
  out.mcpName = rule.optStr("mcpName");
  if (out.mcpName && out.mcpName->empty()) rule.fail(rule.path() + ".mcpName", "an empty server name names no server");
  if (!rule.has("toolName") && !out.mcpName) rule.fail(rule.path() + ".toolName", "required (\"*\" for every tool)");
  if (tools.empty()) tools.push_back("*");  // a server's rule without toolName: all its tools, as the docs describe
  for (const auto& name : tools) {
    if (name.empty()) rule.fail(rule.path() + ".toolName", "an empty name names no tool (\"*\" for every tool)");
    out.toolNames.push_back(out.mcpName ? mcpToolName(*out.mcpName, name) : name);
  }
  std::vector<std::string> prefixes = stringOrList(rule, "commandPrefix");
  std::optional<std::string> commandRegex = rule.optStr("commandRegex");
  std::optional<std::string> argsPattern = rule.optStr("argsPattern");
  if (!prefixes.empty() || commandRegex) {
    const json::Value* name = json::find(*rule.value(), "toolName");
    if (!name || !name->IsString() || tools.front() != kShellTool) {
      rule.fail(rule.path() + ".toolName", "commandPrefix and commandRegex need toolName = \"run_shell_command\" (one name)");
    }
    if (argsPattern) rule.fail(rule.path() + ".argsPattern", "cannot be combined with commandPrefix or commandRegex");
    if (!prefixes.empty() && commandRegex) rule.fail(rule.path() + ".commandRegex", "cannot be combined with commandPrefix");
  }
  for (const auto& prefix : prefixes) {
    auto words = tools::splitShellWords(prefix).words;
    if (words.empty()) rule.fail(rule.path() + ".commandPrefix", "an empty prefix would match every command");
    out.commandPrefixes.push_back(std::move(words));
  }
  // Gemini CLI matches a command pattern against the arguments from the command's start.
  if (commandRegex) argsPattern = "\"command\":\"" + *commandRegex;
  if (argsPattern && rule.ok()) {
    auto compiled = compilePattern(*argsPattern);
    if (compiled) {
      out.argsPattern = std::move(compiled).value();
    } else {
      rule.fail(rule.path() + (commandRegex ? ".commandRegex" : ".argsPattern"), compiled.error().message);
    }
  }
  std::string decision = rule.str("decision");
  if (auto parsed = parsePolicyDecision(decision)) {
    out.decision = *parsed;
  } else if (rule.ok()) {
    rule.fail(rule.path() + ".decision", "\"" + decision + "\" is not allow, deny or ask_user");
  }
  int64_t priority = rule.int64("priority");
  if (rule.ok() && (priority < 0 || priority > 999)) {
    rule.fail(rule.path() + ".priority", "must be from 0 to 999 (a higher one would reach into the next tier)");
  }
  out.priority = static_cast<int>(priority);
  for (const auto& mode : rule.optStrings("modes").value_or(std::vector<std::string>{})) {
    auto parsed = parseApprovalMode(mode);
    if (!parsed) rule.fail(rule.path() + ".modes", "\"" + mode + "\" is not default, autoEdit, yolo or plan");
    if (parsed) out.modes.push_back(*parsed);
  }
  out.interactive = rule.optBool("interactive");
  if (auto notes = rule.optObject("toolAnnotations")) {
    for (const auto& member : notes->value()->GetObject()) {
      out.toolAnnotations[std::string(member.name.GetString(), member.name.GetStringLength())] = json::stringify(member.value);
    }
  }
  auto redirection = rule.optBool("allowRedirection");
  auto legacyRedirection = rule.optBool("allow_redirection");
  out.allowRedirection = redirection.value_or(legacyRedirection.value_or(false));
  out.denyMessage = rule.optStr("denyMessage").value_or(rule.optStr("deny_message").value_or(""));
  out.asWritten = json::stringify(*rule.value());
  return out;
}

std::optional<std::string> readSmallFile(const std::string& path, std::string& problem) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    problem = path + ": cannot be read";
    return std::nullopt;
  }
  std::string text;
  text.resize(kMaxPolicyFileBytes + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxPolicyFileBytes) {
    problem = path + ": larger than " + std::to_string(kMaxPolicyFileBytes) + " bytes";
    return std::nullopt;
  }
  return text;
}

}  // namespace

bool safePattern(std::string_view pattern) {
  if (pattern.size() > kMaxPatternLength) return false;
  // Gemini CLI's heuristic: a group holding a quantifier, itself quantified ((a+)+, (.*)*).
  static const Result<Regex> nested = Regex::compile(R"(\([^)]*[*+?{].*\)[*+?{])");
  return nested && nested->search(pattern) == Regex::Match::no;
}

Result<PolicyRules> parsePolicyFile(std::string_view text, const std::string& path, PolicyTier tier,
                                    const std::string& owner) {
  auto doc = formats::parseToml(text, path);
  if (!doc) return doc.error();
  auto root = json::Reader::root(doc->value, "");
  PolicyRules out;
  for (const auto& member : doc->value.GetObject()) {
    std::string_view key(member.name.GetString(), member.name.GetStringLength());
    if (key != "rule" && key != "safety_checker") root.fail(std::string(key), "not a policy file key (rule, safety_checker)");
  }
  int number = 0;
  for (auto& rule : root.optArray("rule").value_or(std::vector<json::Reader>{})) {
    PolicyRule read = readRule(rule, *doc, tier, owner, ++number);
    if (!root.ok()) break;
    out.rules.push_back(std::move(read));
  }
  if (!root.ok()) return doc->locate(root.error());
  // Safety checkers run programs and checks Lathe does not have: a file
  // relying on them is left out rather than half applied.
  if (root.has("safety_checker")) {
    return doc->locate(Error{Errc::invalid_params, "safety_checker: Lathe does not run safety checkers, so this file "
                                                   "is left out (move its [[rule]] tables to a file of their own)"});
  }
  return out;
}

std::vector<std::string> policyFilesOf(const PolicySource& source) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> files;
  if (fs::is_regular_file(source.path, ec)) {
    if (source.path.ends_with(".toml")) files.push_back(source.path);
    return files;
  }
  for (fs::directory_iterator it(source.path, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string path = it->path().string();
    if (!path.ends_with(".toml") || !fs::is_regular_file(it->path(), ec)) continue;
    if (std::find(source.skip.begin(), source.skip.end(), path) != source.skip.end()) continue;
    files.push_back(path);
  }
  std::sort(files.begin(), files.end());
  return files;
}

LoadedPolicies readPolicySources(const std::vector<PolicySource>& sources) {
  LoadedPolicies out;
  for (const auto& source : sources) {
    for (const auto& file : policyFilesOf(source)) {
      std::string problem;
      auto text = readSmallFile(file, problem);
      if (!text) {
        out.problems.push_back(problem);
        out.rules.unread.push_back(file);
        continue;
      }
      auto rules = parsePolicyFile(*text, file, source.tier, source.owner);
      if (!rules) {
        out.problems.push_back(rules.error().message);
        out.rules.unread.push_back(file);
        continue;
      }
      for (auto& rule : rules->rules) out.rules.rules.push_back(std::move(rule));
    }
  }
  return out;
}

}  // namespace lathe::engine
