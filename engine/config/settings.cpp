// Settings file reading.
#include "engine/config/settings.h"

#include "engine/config/program_settings_decode.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "protocol/base/json.h"

namespace lathe::engine {

std::string stripJsonComments(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        inString = false;
      }
    } else if (c == '"') {
      inString = true;
      out += c;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      out += '\n';
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      size_t end = text.find("*/", i + 2);
      i = end == std::string::npos ? text.size() : end + 1;
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

namespace {
constexpr int64_t kDefaultSummaryTokens = 2000;  // a summary's budget when the setting names none

// A context file name is a plain file name: it is looked up in every folder
// from the project root down, and a path there could reach anywhere.
bool plainFileName(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

void readContextSettings(const std::string& path, json::Reader& context, Settings& settings) {
  if (const json::Value* name = json::find(*context.value(), "fileName")) {
    std::vector<std::string> names;
    if (name->IsString()) {
      names.emplace_back(name->GetString(), name->GetStringLength());
    } else if (auto list = context.optStrings("fileName")) {
      names = *list;
    }
    bool good = !names.empty() && std::all_of(names.begin(), names.end(), plainFileName);
    if (good) {
      settings.contextFileNames = std::move(names);
    } else if (context.ok()) {
      context.fail(path + ".context.fileName", "must be a file name or a non-empty list of file names (no folders)");
    }
  }
  if (auto dirs = context.optNumber("discoveryMaxDirs")) {
    if (*dirs >= 0 && *dirs <= 100000) {
      settings.contextDiscoveryMaxDirs = static_cast<int64_t>(*dirs);
    } else {
      context.fail(path + ".context.discoveryMaxDirs", "must be a number of folders from 0 to 100000");
    }
  }
}

// model.generationConfig: {"gemini-2.5": {"temperature": 0.2, "thinkingBudget": 2048}}.
void readGenerationSettings(const std::string& path, json::Reader& entries, Settings& settings) {
  for (const auto& member : entries.value()->GetObject()) {
    std::string model(member.name.GetString(), member.name.GetStringLength());
    const std::string where = path + ".model.generationConfig." + model;
    if (!member.value.IsObject()) {
      entries.fail(where, "must be an object of generation settings");
      return;
    }
    GenerationOverride out;
    bool good = true;
    auto number = [&](const char* key, double low, double high, const char* range) -> std::optional<double> {
      const json::Value* value = json::find(member.value, key);
      if (!value || !good) return std::nullopt;
      if (!value->IsNumber() || !(value->GetDouble() >= low && value->GetDouble() <= high)) {
        entries.fail(where + "." + key, std::string("must be a number ") + range);
        good = false;
        return std::nullopt;
      }
      return value->GetDouble();
    };
    out.temperature = number("temperature", 0, 2, "from 0 to 2");
    out.topP = number("topP", 0, 1, "from 0 to 1");
    if (auto k = number("topK", 1, 1000, "from 1 to 1000")) out.topK = static_cast<int64_t>(*k);
    if (auto tokens = number("maxOutputTokens", 1, 1e7, "of tokens from 1")) out.maxOutputTokens = static_cast<int64_t>(*tokens);
    if (auto budget = number("thinkingBudget", -1, 1e6, "of tokens (-1: the model decides)")) {
      out.thinkingBudget = static_cast<int64_t>(*budget);
    }
    if (const json::Value* level = json::find(member.value, "thinkingLevel"); level && good) {
      if (!level->IsString() || level->GetStringLength() == 0) {
        entries.fail(where + ".thinkingLevel", "must be a level such as LOW or HIGH");
        good = false;
      } else {
        out.thinkingLevel = std::string(level->GetString(), level->GetStringLength());
      }
    }
    if (!good) return;
    settings.generation[model] = std::move(out);
  }
}

}  // namespace

Result<std::optional<json::Document>> readSettingsDocument(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::optional<json::Document>{};
  std::stringstream buffer;
  buffer << in.rdbuf();
  auto doc = json::parse(stripJsonComments(buffer.str()));
  if (!doc) return makeError(Errc::invalid_params, "settings file " + path + ": " + doc.error().message);
  if (!doc->IsObject()) return makeError(Errc::invalid_params, "settings file " + path + ": expected a JSON object");
  return std::optional<json::Document>(std::move(doc).value());
}

Status mergeSettingsFile(const std::string& path, Settings& settings, SettingsScope scope, const EnvLookup& env) {
  auto read = readSettingsDocument(path);
  if (!read) return read.error();
  if (!*read) return {};
  const json::Document& doc = **read;
  auto r = json::Reader::root(doc, path);
  if (auto model = r.optObject("model")) {
    if (auto name = model->optStr("name")) settings.model = name;
    if (auto provider = model->optStr("provider")) settings.provider = provider;
    if (auto choices = model->optObject("choices")) {
      for (const auto& member : choices->value()->GetObject()) {
        std::string api(member.name.GetString(), member.name.GetStringLength());
        auto names = choices->optStrings(api.c_str());
        if (names) settings.modelChoices[api] = *names;
      }
    }
    if (auto threshold = model->optNumber("compressionThreshold")) {
      if (*threshold > 0 && *threshold <= 1) {
        settings.compressionThreshold = threshold;
      } else {
        r.fail(path + ".model.compressionThreshold", "must be a share of the context window, above 0 and at most 1");
      }
    }
    if (auto disable = model->optBool("disableLoopDetection")) settings.disableLoopDetection = disable;
    if (auto summarize = model->optObject("summarizeToolOutput")) {
      for (const auto& member : summarize->value()->GetObject()) {
        std::string tool(member.name.GetString(), member.name.GetStringLength());
        int64_t budget = kDefaultSummaryTokens;
        if (member.value.IsObject()) {
          if (const json::Value* tokens = json::find(member.value, "tokenBudget")) {
            if (!tokens->IsInt64() || tokens->GetInt64() <= 0) {
              r.fail(path + ".model.summarizeToolOutput." + tool + ".tokenBudget", "must be a positive number of tokens");
              break;
            }
            budget = tokens->GetInt64();
          }
        } else if (!member.value.IsTrue()) {
          continue;  // false or null: not summarised
        }
        settings.summarizeToolOutput[tool] = budget;
      }
    }
    if (auto generation = model->optObject("generationConfig")) readGenerationSettings(path, *generation, settings);
    if (auto limits = model->optObject("contextLimits")) {
      for (const auto& member : limits->value()->GetObject()) {
        std::string name(member.name.GetString(), member.name.GetStringLength());
        if (!member.value.IsInt64() || member.value.GetInt64() <= 0) {
          r.fail(path + ".model.contextLimits." + name, "must be a positive number of tokens");
          break;
        }
        settings.contextLimits[name] = member.value.GetInt64();
      }
    }
  }
  if (auto tools = r.optObject("tools")) {
    if (auto core = tools->optStrings("core")) settings.coreTools = core;
    if (auto exclude = tools->optStrings("exclude")) settings.excludeTools = exclude;
    if (auto allowed = tools->optStrings("allowed")) settings.allowedTools = allowed;
    if (auto network = tools->optBool("sandboxNetwork")) settings.sandboxNetwork = network;
    // A repository may not open the person's private network to web_fetch.
    if (auto web = tools->optObject("webFetch"); web && scope == SettingsScope::user) {
      if (auto hosts = web->optStrings("allowPrivateHosts")) settings.webFetchAllowPrivateHosts = hosts;
    }
    if (auto threshold = tools->optNumber("truncateToolOutputThreshold")) {
      if (*threshold >= 1000 && *threshold <= 1e9) {
        settings.truncateToolOutputThreshold = static_cast<int64_t>(*threshold);
      } else {
        r.fail(path + ".tools.truncateToolOutputThreshold", "must be a number of characters from 1000 up");
      }
    }
    if (const json::Value* sandbox = json::find(*tools->value(), "sandbox")) {
      // Gemini CLI names a runtime here (docker, podman, sandbox-exec): the
      // intent is "sandbox my commands", which Lathe does with bubblewrap.
      if (sandbox->IsBool()) {
        settings.sandbox = sandbox->GetBool();
      } else if (sandbox->IsString()) {
        settings.sandbox = sandbox->GetStringLength() > 0;
      } else if (!sandbox->IsNull()) {
        r.fail(path + ".tools.sandbox", "must be true, false or a sandbox name");
      }
    }
  }
  if (auto mcp = r.optObject("mcp")) {
    // A workspace's mcp.allowed is read too, and applied only with consent
    // (workspace_settings.h): it makes calls run unasked.
    if (auto allowed = mcp->optStrings("allowed")) settings.mcpAllowed = allowed;
    if (auto excluded = mcp->optStrings("excluded")) settings.mcpExcluded = excluded;
  }
  if (scope == SettingsScope::user) {
    decodeProgramSettings(r, tools::mcp::ServerConfig::Origin::userSettings, env, settings.programs);
  }
  if (auto context = r.optObject("context")) readContextSettings(path, *context, settings);
  if (scope == SettingsScope::user) {
    if (auto proxy = r.optStr("proxy")) settings.proxy = proxy;
  }
  // Only the person's own files say how they log in.
  if (auto security = r.optObject("security"); security && scope == SettingsScope::user) {
    if (auto auth = security->optObject("auth")) {
      if (auto selected = auth->optStr("selectedType")) settings.authSelectedType = selected;
    }
  }
  if (auto general = r.optObject("general")) {
    if (auto mode = general->optStr("defaultApprovalMode")) settings.approvalMode = mode;
  }
  if (!r.ok()) return r.error();
  return {};
}

}  // namespace lathe::engine
