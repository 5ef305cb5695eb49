// Matching policy rules against calls.
#include "engine/scheduler/policy_rule.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "protocol/base/enum_names.h"

namespace lathe::engine {
namespace {

constexpr EnumName<PolicyTier> kTiers[] = {
    {PolicyTier::builtin, "default"}, {PolicyTier::extension, "extension"}, {PolicyTier::workspace, "workspace"},
    {PolicyTier::user, "user"},       {PolicyTier::admin, "admin"},
};

constexpr EnumName<PolicyDecision> kDecisions[] = {
    {PolicyDecision::allow, "allow"},
    {PolicyDecision::deny, "deny"},
    {PolicyDecision::askUser, "ask_user"},
};

constexpr std::string_view kMcpPrefix = "mcp_";

// Gemini CLI's renamed tools: the old name still names the tool in rules.
constexpr std::pair<std::string_view, std::string_view> kLegacyNames[] = {{"search_file_content", "grep_search"}};

// Numbers as JavaScript prints them where it matters for patterns: whole
// numbers without a fraction.
void putNumber(std::string& out, const json::Value& v) {
  if (v.IsInt64()) {
    out += std::to_string(v.GetInt64());
  } else if (v.IsUint64()) {
    out += std::to_string(v.GetUint64());
  } else {
    double d = v.GetDouble();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
      out += std::to_string(static_cast<int64_t>(d));
    } else {
      out += json::stringify(v);
    }
  }
}

void putValue(std::string& out, const json::Value& v, bool topLevel) {
  if (v.IsObject()) {
    std::vector<std::pair<std::string_view, const json::Value*>> members;
    for (const auto& m : v.GetObject()) members.emplace_back(std::string_view(m.name.GetString(), m.name.GetStringLength()), &m.value);
    std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    out += '{';
    for (size_t i = 0; i < members.size(); ++i) {
      if (i) out += ',';
      if (topLevel) out += '\0';
      json::appendJsString(out, members[i].first);
      out += ':';
      putValue(out, *members[i].second, false);
      if (topLevel) out += '\0';
    }
    out += '}';
  } else if (v.IsArray()) {
    out += '[';
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      if (i) out += ',';
      putValue(out, v[i], false);
    }
    out += ']';
  } else if (v.IsString()) {
    json::appendJsString(out, std::string_view(v.GetString(), v.GetStringLength()));
  } else if (v.IsNumber()) {
    putNumber(out, v);
  } else if (v.IsBool()) {
    out += v.GetBool() ? "true" : "false";
  } else {
    out += "null";
  }
}

// '*' stands for any run of characters.
bool globMatches(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool isMcp(const PolicyCall& call) { return call.source && call.source->group == tools::ToolSource::Group::mcp; }

// Gemini CLI's name for an MCP tool.
std::string mcpName(const tools::ToolSource& source) { return std::string(kMcpPrefix) + source.server + "_" + source.tool; }

bool nameMatches(std::string_view pattern, const PolicyCall& call) {
  if (pattern == "*") return true;
  if (pattern == "mcp_*") return isMcp(call);
  // "mcp_<server>_*": that server's tools, the server compared by name (a
  // server "a" is not "a_b"'s prefix).
  if (pattern.starts_with(kMcpPrefix) && pattern.ends_with("_*")) {
    std::string_view server = pattern.substr(kMcpPrefix.size(), pattern.size() - kMcpPrefix.size() - 2);
    if (server.find('*') == std::string_view::npos) return isMcp(call) && call.source->server == server;
  }
  const bool wildcard = pattern.find('*') != std::string_view::npos;
  for (const auto& name : call.names) {
    if (wildcard ? globMatches(pattern, name) : pattern == name) return true;
    if (isMcp(call) && !wildcard && tools::settingNamesTool(pattern, name, *call.source)) return true;
  }
  return isMcp(call) && wildcard && globMatches(pattern, mcpName(*call.source));
}

bool startsWithWords(const std::vector<std::string>& words, const std::vector<std::string>& prefix) {
  return !prefix.empty() && prefix.size() <= words.size() && std::equal(prefix.begin(), prefix.end(), words.begin());
}

bool annotationsMatch(const PolicyRule& rule, const PolicyCall& call) {
  if (rule.toolAnnotations.empty()) return true;
  if (!call.annotations || !call.annotations->IsObject()) return false;
  return std::all_of(rule.toolAnnotations.begin(), rule.toolAnnotations.end(), [&](const auto& wanted) {
    const json::Value* have = json::find(*call.annotations, wanted.first.c_str());
    return have && json::stringify(*have) == wanted.second;
  });
}

int severity(PolicyDecision decision) {
  return decision == PolicyDecision::deny ? 2 : decision == PolicyDecision::askUser ? 1 : 0;
}

}  // namespace

const char* toString(PolicyTier tier) { return nameOf(kTiers, tier); }
const char* toString(PolicyDecision decision) { return nameOf(kDecisions, decision); }
std::optional<PolicyDecision> parsePolicyDecision(std::string_view text) { return valueOf(kDecisions, text); }

std::string PolicyOrigin::describe() const {
  std::string out = "rule " + std::to_string(number);
  if (!name.empty()) out += " (\"" + name + "\")";
  if (line > 0) out += " (line " + std::to_string(line) + ")";
  return out + " of " + file;
}

std::string jsString(std::string_view text) {
  std::string out;
  json::appendJsString(out, text);
  return out;
}

std::string escapeRegex(std::string_view text) {
  static constexpr std::string_view kSpecial = "-[]{}()*+?.,\\^$|#\"";
  std::string out;
  for (char c : text) {
    if (kSpecial.find(c) != std::string_view::npos || std::isspace(static_cast<unsigned char>(c))) out += '\\';
    out += c;
  }
  return out;
}

std::string PolicyOrigin::whose() const {
  switch (tier) {
    case PolicyTier::admin: return "the administrator's policy";
    case PolicyTier::user: return "your policy";
    case PolicyTier::workspace: return "this workspace's policy";
    case PolicyTier::extension: return "extension " + owner + "'s policy";
    case PolicyTier::builtin: break;
  }
  return "Lathe's policy";
}

std::string stableArgs(const json::Value& args) {
  std::string out;
  putValue(out, args, true);
  return out;
}

std::string stableArgs(std::string_view argsJson) {
  auto doc = json::parse(argsJson.empty() ? std::string_view("{}") : argsJson);
  if (!doc || !doc->IsObject()) return "{}";
  return stableArgs(*doc);
}

std::vector<std::string> policyNames(const std::string& name, const std::string& calledAs) {
  std::vector<std::string> names{name};
  if (!calledAs.empty() && calledAs != name) names.push_back(calledAs);
  for (const auto& [legacy, current] : kLegacyNames) {
    for (const auto& known : std::vector<std::string>(names)) {
      if (known == current && std::find(names.begin(), names.end(), legacy) == names.end()) names.emplace_back(legacy);
      if (known == legacy && std::find(names.begin(), names.end(), current) == names.end()) names.emplace_back(current);
    }
  }
  return names;
}

bool ruleMatches(const PolicyRule& rule, const PolicyCall& call) {
  if (!rule.modes.empty() && std::find(rule.modes.begin(), rule.modes.end(), call.mode) == rule.modes.end()) return false;
  if (rule.subagent && *rule.subagent != call.subagent) return false;
  if (rule.interactive && *rule.interactive != call.interactive) return false;
  if (rule.mcpName) {
    if (!isMcp(call)) return false;
    if (*rule.mcpName != "*" && call.source->server != *rule.mcpName) return false;
  }
  if (!std::any_of(rule.toolNames.begin(), rule.toolNames.end(), [&](const auto& p) { return nameMatches(p, call); })) {
    return false;
  }
  if (!annotationsMatch(rule, call)) return false;
  if (call.unseenCommand) return true;
  if (!rule.commandPrefixes.empty()) {
    if (!call.commandWords) return false;
    const auto& words = *call.commandWords;
    if (!std::any_of(rule.commandPrefixes.begin(), rule.commandPrefixes.end(),
                     [&](const auto& prefix) { return startsWithWords(words, prefix); })) {
      return false;
    }
  }
  if (rule.argsPattern) {
    // A pattern too costly to decide counts against the call: it matches a
    // rule that refuses or asks, never one that allows.
    Regex::Match match = rule.argsPattern->search(call.stableArgs);
    if (match == Regex::Match::no) return false;
    if (match == Regex::Match::tooComplex && rule.decision == PolicyDecision::allow) return false;
  }
  return true;
}

bool decidesOver(const PolicyRule& a, const PolicyRule& b) {
  auto personsOwnCheck = [](const PolicyRule& r) {
    return r.decision != PolicyDecision::allow && r.origin.tier >= PolicyTier::user && !r.origin.kept;
  };
  if (a.origin.kept && personsOwnCheck(b)) return false;
  if (b.origin.kept && personsOwnCheck(a)) return true;
  if (a.rank() != b.rank()) return a.rank() > b.rank();
  return severity(a.decision) > severity(b.decision);
}

const PolicyRule* topRule(const PolicyList& rules, const PolicyCall& call, bool (*only)(const PolicyRule&)) {
  const PolicyRule* best = nullptr;
  for (const auto& set : rules) {
    if (!set) continue;
    for (const auto& rule : set->rules) {
      if (only && !only(rule)) continue;
      if (best && !decidesOver(rule, *best)) continue;
      if (ruleMatches(rule, call)) best = &rule;
    }
  }
  return best;
}

}  // namespace lathe::engine
