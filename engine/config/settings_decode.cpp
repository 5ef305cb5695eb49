// Settings values that need more than a JSON type check.
#include "engine/config/settings_decode.h"

#include <algorithm>
#include <filesystem>
#include <functional>

#include "engine/config/program_settings_decode.h"

namespace lathe::engine::decode {
namespace {

constexpr int64_t kDefaultSummaryTokens = 2000;  // a summary's budget when the setting names none

std::string nameOf(const json::Value& member) { return {member.GetString(), member.GetStringLength()}; }

// A context file name is a plain file name: it is looked up in every folder
// from the project root down, and a path there could reach anywhere.
bool plainFileName(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

// One model's entry of model.generationConfig; nullopt (and a failure on
// `reader`) when a field is out of range.
std::optional<GenerationOverride> generationEntry(json::Reader& reader, const std::string& where,
                                                  const json::Value& entry) {
  GenerationOverride out;
  bool good = true;
  auto number = [&](const char* key, double low, double high, const char* range) -> std::optional<double> {
    const json::Value* value = json::find(entry, key);
    if (!value || !good) return std::nullopt;
    if (!value->IsNumber() || !(value->GetDouble() >= low && value->GetDouble() <= high)) {
      reader.fail(where + "." + key, std::string("must be a number ") + range);
      good = false;
      return std::nullopt;
    }
    return value->GetDouble();
  };
  out.temperature = number("temperature", 0, 2, "from 0 to 2");
  out.topP = number("topP", 0, 1, "from 0 to 1");
  if (auto k = number("topK", 1, 1000, "from 1 to 1000")) out.topK = static_cast<int64_t>(*k);
  if (auto tokens = number("maxOutputTokens", 1, 1e7, "of tokens from 1")) {
    out.maxOutputTokens = static_cast<int64_t>(*tokens);
  }
  if (auto budget = number("thinkingBudget", -1, 1e6, "of tokens (-1: the model decides)")) {
    out.thinkingBudget = static_cast<int64_t>(*budget);
  }
  if (const json::Value* level = json::find(entry, "thinkingLevel"); level && good) {
    if (!level->IsString() || level->GetStringLength() == 0) {
      reader.fail(where + ".thinkingLevel", "must be a level such as LOW or HIGH");
      good = false;
    } else {
      out.thinkingLevel = std::string(level->GetString(), level->GetStringLength());
    }
  }
  if (!good) return std::nullopt;
  return out;
}

// The key's number when `good` accepts it; otherwise a failure naming the
// field with `what` it must be.
template <typename Check>
std::optional<double> checkedNumber(SettingSource& in, Check good, const char* what) {
  auto number = in.parent.optNumber(in.key);
  if (!number) return std::nullopt;
  if (good(*number)) return number;
  in.parent.fail(in.where(), what);
  return std::nullopt;
}

}  // namespace

void modelChoices(SettingSource& in, Settings& out) {
  auto choices = in.parent.optObject(in.key);
  if (!choices) return;
  for (const auto& member : choices->value()->GetObject()) {
    std::string api = nameOf(member.name);
    if (auto names = choices->optStrings(api.c_str())) out.modelChoices[api] = *names;
  }
}

void contextLimits(SettingSource& in, Settings& out) {
  auto limits = in.parent.optObject(in.key);
  if (!limits) return;
  for (const auto& member : limits->value()->GetObject()) {
    std::string name = nameOf(member.name);
    if (!member.value.IsInt64() || member.value.GetInt64() <= 0) {
      in.parent.fail(in.where() + "." + name, "must be a positive number of tokens");
      return;
    }
    out.contextLimits[name] = member.value.GetInt64();
  }
}

namespace {

// An object of entries by model name, each an object read by `entry`
// (nullopt: it failed on the reader); stops at the first problem.
template <class Entry>
void forEachModel(SettingSource& in, const char* what,
                  const std::function<std::optional<Entry>(json::Reader&, const std::string&, const json::Value&)>& entry,
                  std::map<std::string, Entry>& out) {
  auto entries = in.parent.optObject(in.key);
  if (!entries) return;
  for (const auto& member : entries->value()->GetObject()) {
    std::string model = nameOf(member.name);
    const std::string where = in.where() + "." + model;
    if (!member.value.IsObject()) return entries->fail(where, std::string("must be an object of ") + what);
    auto read = entry(*entries, where, member.value);
    if (!read) return;
    out[model] = std::move(*read);
  }
}

// One model's prices, in US dollars per million tokens; cachedInput optional.
std::optional<Price> priceEntry(json::Reader& reader, const std::string& where, const json::Value& entry) {
  Price price;
  for (const char* key : {"input", "output", "cachedInput"}) {
    const json::Value* value = json::find(entry, key);
    const bool cached = std::string_view(key) == "cachedInput";
    if (!value && cached) continue;
    if (!value || !value->IsNumber() || value->GetDouble() < 0) {
      reader.fail(where + "." + key, "must be a number of US dollars per million tokens, 0 or more");
      return std::nullopt;
    }
    double& slot = cached ? price.cachedInput.emplace() : std::string_view(key) == "input" ? price.input : price.output;
    slot = value->GetDouble();
  }
  return price;
}

}  // namespace

// {"gemini-2.5": {"temperature": 0.2, "thinkingBudget": 2048}}.
void generationConfig(SettingSource& in, Settings& out) {
  forEachModel<GenerationOverride>(in, "generation settings", generationEntry, out.generation);
}

// {"gemini-2.5-pro": {"input": 1.25, "output": 10, "cachedInput": 0.125}}.
void pricing(SettingSource& in, Settings& out) {
  forEachModel<Price>(in, "prices (input, output, cachedInput)", priceEntry, out.pricing);
}

void compressionThreshold(SettingSource& in, Settings& out) {
  auto share = checkedNumber(in, [](double v) { return v > 0 && v <= 1; },
                             "must be a share of the context window, above 0 and at most 1");
  if (share) out.compressionThreshold = share;
}

void summarizeToolOutput(SettingSource& in, Settings& out) {
  auto summarize = in.parent.optObject(in.key);
  if (!summarize) return;
  for (const auto& member : summarize->value()->GetObject()) {
    std::string tool = nameOf(member.name);
    int64_t budget = kDefaultSummaryTokens;
    if (member.value.IsObject()) {
      if (const json::Value* tokens = json::find(member.value, "tokenBudget")) {
        if (!tokens->IsInt64() || tokens->GetInt64() <= 0) {
          in.parent.fail(in.where() + "." + tool + ".tokenBudget", "must be a positive number of tokens");
          return;
        }
        budget = tokens->GetInt64();
      }
    } else if (!member.value.IsTrue()) {
      continue;  // false or null: not summarised
    }
    out.summarizeToolOutput[tool] = budget;
  }
}

// Gemini CLI names a runtime here (docker, podman, sandbox-exec): the intent
// is "sandbox my commands", which Lathe does with bubblewrap.
void sandbox(SettingSource& in, Settings& out) {
  const json::Value* sandbox = json::find(*in.parent.value(), in.key);
  if (!sandbox) return;
  if (sandbox->IsBool()) {
    out.sandbox = sandbox->GetBool();
  } else if (sandbox->IsString()) {
    out.sandbox = sandbox->GetStringLength() > 0;
  } else if (!sandbox->IsNull()) {
    in.parent.fail(in.where(), "must be true, false or a sandbox name");
  }
}

void truncateThreshold(SettingSource& in, Settings& out) {
  auto chars = checkedNumber(in, [](double v) { return v >= 1000 && v <= 1e9; },
                             "must be a number of characters from 1000 up");
  if (chars) out.truncateToolOutputThreshold = static_cast<int64_t>(*chars);
}

void contextFileName(SettingSource& in, Settings& out) {
  const json::Value* name = json::find(*in.parent.value(), in.key);
  if (!name) return;
  std::vector<std::string> names;
  if (name->IsString()) {
    names.emplace_back(name->GetString(), name->GetStringLength());
  } else if (auto list = in.parent.optStrings(in.key)) {
    names = *list;
  }
  bool good = !names.empty() && std::all_of(names.begin(), names.end(), plainFileName);
  if (good) {
    out.contextFileNames = std::move(names);
  } else if (in.parent.ok()) {
    in.parent.fail(in.where(), "must be a file name or a non-empty list of file names (no folders)");
  }
}

void discoveryMaxDirs(SettingSource& in, Settings& out) {
  auto dirs = checkedNumber(in, [](double v) { return v >= 0 && v <= 100000; },
                            "must be a number of folders from 0 to 100000");
  if (dirs) out.contextDiscoveryMaxDirs = static_cast<int64_t>(*dirs);
}

// mcpServers with tools.discoveryCommand and tools.callCommand: the parent is
// the file's root. Only the person's files are read here; a workspace's
// programs are workspace_programs.h's.
void programs(SettingSource& in, Settings& out) {
  if (in.file != SettingsScope::user) return;
  decodeProgramSettings(in.parent, tools::mcp::ServerConfig::Origin::userSettings, in.env, out.programs);
}

// {"codebase_investigator": {"enabled": false, "runConfig": {"maxTurns": 20,
// "maxTimeMinutes": 5}, "modelConfig": {"model": "gemini-2.5-flash"}}}. Other
// fields of Gemini CLI's (tools, mcpServers, generateContentConfig) are not
// read.
void agentOverrides(SettingSource& in, Settings& out) {
  auto agents = in.parent.optObject(in.key);
  if (!agents) return;
  for (const auto& member : agents->value()->GetObject()) {
    const std::string name = nameOf(member.name);
    auto entry = agents->optObject(name.c_str());
    if (!entry) continue;
    AgentOverride o;
    o.enabled = entry->optBool("enabled");
    if (auto run = entry->optObject("runConfig")) {
      auto positive = [&](const char* key) -> std::optional<int64_t> {
        auto value = run->optInt64(key);
        if (value && (*value <= 0 || *value > 1'000'000'000)) {
          run->fail(run->path() + "." + key, "must be a positive whole number");
          return std::nullopt;
        }
        return value;
      };
      if (auto turns = positive("maxTurns")) o.maxTurns = static_cast<int>(*turns);
      if (auto minutes = positive("maxTimeMinutes")) o.maxTimeMinutes = static_cast<int>(*minutes);
      o.maxTokens = positive("maxTokens");
    }
    if (auto model = entry->optObject("modelConfig")) {
      if (auto id = model->optStr("model"); id && !id->empty() && *id != "inherit") o.model = id;
    }
    if (!in.parent.ok()) return;
    out.agentOverrides[name] = std::move(o);
  }
}

namespace {

// Gemini CLI's resolvePath: "~" and "~/..." under the home it uses
// ($GEMINI_CLI_HOME, else $HOME); a relative path from the current folder.
std::optional<std::vector<std::string>> paths(SettingSource& in) {
  auto list = in.parent.optStrings(in.key);
  if (!list) return std::nullopt;
  std::string home = in.env("GEMINI_CLI_HOME").value_or("");
  if (home.empty()) home = in.env("HOME").value_or("");
  for (auto& path : *list) {
    if (path.empty()) {
      in.parent.fail(in.where(), "an empty path names no policy file or folder");
      return std::nullopt;
    }
    if ((path == "~" || path.starts_with("~/")) && !home.empty()) path = home + path.substr(1);
    path = std::filesystem::absolute(path).lexically_normal().string();
  }
  return list;
}

}  // namespace

void policyPaths(SettingSource& in, Settings& out) {
  if (auto list = paths(in)) out.policyPaths = std::move(list);
}

void adminPolicyPaths(SettingSource& in, Settings& out) {
  if (auto list = paths(in)) out.adminPolicyPaths = std::move(list);
}

// The person's files only, like programs: a workspace's hooks wait for
// consent (workspace_programs.h). A bad definition is left out and named
// for the person; the file still applies.
void hooks(SettingSource& in, Settings& out) {
  if (in.file != SettingsScope::user) return;
  const json::Value* hooks = json::find(*in.parent.value(), in.key);
  if (!hooks) return;
  out.hooks.add(decodeHooks(*hooks, HookSource{HookOrigin::user, in.parent.path(), ""}));
}

}  // namespace lathe::engine::decode
