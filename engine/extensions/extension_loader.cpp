// Reading gemini-extension.json and what an extension's folder brings.
#include "engine/extensions/extension_loader.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "engine/config/program_settings_decode.h"
#include "engine/extensions/extension_enablement.h"
#include "engine/extensions/extension_variables.h"
#include "tools/skills/skill_loader.h"

namespace lathe::engine {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool isDir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::optional<InstallMetadata> readInstallMetadata(const std::string& dir) {
  auto text = readText(dir + "/" + kInstallMetadataName);
  if (!text) return std::nullopt;
  auto doc = json::parse(*text);
  if (!doc || !doc->IsObject()) return std::nullopt;
  auto source = json::getStr(*doc, "source");
  auto type = json::getStr(*doc, "type");
  if (!source || !type) return std::nullopt;
  return InstallMetadata{*source, *type, json::getStr(*doc, "ref")};
}

// Gemini CLI's checks on a contextFileName: relative, inside the folder, existing.
std::optional<std::string> contextFilePath(const std::string& name, const std::string& folder, std::string& why) {
  if (name.find_first_not_of(" \t") == std::string::npos) why = "expected a non-empty string";
  else if (name.find('\0') != std::string::npos) why = "null bytes are not allowed";
  else if (name.front() == '/') why = "absolute paths are not allowed";
  else if (name.find("..") != std::string::npos) why = "\"..\" is not allowed";
  if (!why.empty()) return std::nullopt;
  std::string path = (fs::path(folder) / name).lexically_normal().string();
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;  // absent: nothing to load, as in Gemini CLI
  return path;
}

bool blockedVariable(const std::string& name) {
  static const char* const kBlocked[] = {
      "NODE_OPTIONS", "NODE_CLI_FLAGS", "_FORCE_NODE_OPTIONS", "NODE_PATH", "ELECTRON_RUN_AS_NODE", "PYTHONPATH",
      "PYTHONSTARTUP", "RUBYOPT", "RUBYLIB", "PERL5OPT", "PERL5LIB", "LD_PRELOAD", "LD_AUDIT", "LD_DEBUG",
      "LD_PROFILE", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "DYLD_FORCE_FLAT_NAMESPACE", "DYLD_LIBRARY_PATH",
      "DYLD_FRAMEWORK_PATH", "DYLD_FALLBACK_LIBRARY_PATH", "DYLD_FALLBACK_FRAMEWORK_PATH", "BASH_ENV", "ENV",
      "PERL5DB", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "CLASSPATH", "DOTNET_STARTUP_HOOKS", "CORECLR_PROFILER_PATH",
      "CORECLR_ENABLE_PROFILING"};
  std::string upper = name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return std::any_of(std::begin(kBlocked), std::end(kBlocked), [&](const char* b) { return upper == b; });
}

// The declared settings' values: given to the extension's servers and hooks.
std::vector<std::pair<std::string, std::string>> declaredValues(const Extension& ext) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& setting : ext.settings) {
    auto it = std::find_if(ext.settingValues.begin(), ext.settingValues.end(),
                           [&](const auto& entry) { return entry.first == setting.envVar; });
    if (it != ext.settingValues.end() && !blockedVariable(setting.envVar)) out.push_back(*it);
  }
  return out;
}

void readSettings(json::Reader& root, Extension& ext) {
  auto list = root.optArray("settings");
  if (!list) return;
  for (auto& item : *list) {
    if (!item.expectObject()) return;
    ExtensionSetting setting;
    setting.name = item.str("name");
    setting.description = item.optStr("description").value_or("");
    setting.envVar = item.str("envVar");
    setting.sensitive = item.optBool("sensitive").value_or(false);
    ext.settings.push_back(std::move(setting));
  }
}

void readHooks(Extension& ext, const Variables& variables, std::vector<std::string>& notes) {
  const std::string file = ext.path + "/hooks/hooks.json";
  auto text = readText(file);
  if (!text) return;
  auto doc = json::parse(*text);
  if (!doc || !doc->IsObject() || !json::find(*doc, "hooks") || !json::find(*doc, "hooks")->IsObject()) {
    notes.push_back(file + ": not used: " + (doc ? std::string("\"hooks\" must be an object") : doc.error().message));
    return;
  }
  json::Value& hooks = (*doc)["hooks"];
  rewriteStrings(hooks, doc->GetAllocator(), [&](std::string_view s) { return hydrate(s, variables); });
  // The settings' values reach every command hook, under its own env.
  const auto values = declaredValues(ext);
  for (auto& event : hooks.GetObject()) {
    if (!event.value.IsArray()) continue;
    for (auto& definition : event.value.GetArray()) {
      json::Value* list = definition.IsObject() ? &definition : nullptr;
      if (!list || !list->HasMember("hooks") || !(*list)["hooks"].IsArray()) continue;
      for (auto& hook : (*list)["hooks"].GetArray()) {
        if (!hook.IsObject() || json::getStr(hook, "type").value_or("") != "command" || values.empty()) continue;
        if (!hook.HasMember("env") || !hook["env"].IsObject()) {
          hook.RemoveMember("env");
          hook.AddMember("env", json::Value(rapidjson::kObjectType), doc->GetAllocator());
        }
        json::Value& env = hook["env"];
        for (const auto& [name, value] : values) {
          env.RemoveMember(name.c_str());
          env.AddMember(json::Value(name.c_str(), doc->GetAllocator()), json::Value(value.c_str(), doc->GetAllocator()),
                        doc->GetAllocator());
        }
      }
    }
  }
  ext.hooksFile = file;
  ext.hooksJson = json::stringify(hooks);
}

void readSkills(Extension& ext, const Variables& variables, std::vector<std::string>& notes) {
  tools::SkillScan scan = tools::loadSkillsFromDir(ext.path + "/skills");
  for (auto& problem : scan.problems) notes.push_back(std::move(problem));
  for (auto& skill : scan.skills) {
    for (std::string* field : {&skill.name, &skill.description, &skill.location, &skill.body}) {
      *field = hydrate(*field, variables);
    }
    skill.extension = ext.name;
    ext.skills.push_back(std::move(skill));
  }
}

}  // namespace

Result<Extension> readExtension(const std::string& dir, const std::string& extensionsDir,
                                const std::string& workspaceDir, const EnvLookup& env,
                                std::vector<std::string>& notes) {
  Extension ext;
  ext.installDir = dir;
  ext.install = readInstallMetadata(dir);
  ext.path = ext.install && ext.install->type == "link" ? ext.install->source : dir;
  const std::string manifest = ext.path + "/" + kManifestName;
  auto text = readText(manifest);
  if (!text) {
    return makeError(Errc::not_found, dir + ": not an extension: there is no " + std::string(kManifestName) +
                                          (ext.path == dir ? "" : " in " + ext.path + ", where it links to"));
  }
  auto doc = json::parse(*text);
  if (!doc) return makeError(Errc::parse_error, manifest + ": " + doc.error().message);
  Variables variables{{"extensionPath", ext.path}, {"workspacePath", workspaceDir}, {"/", "/"}, {"pathSeparator", "/"}};
  rewriteStrings(*doc, doc->GetAllocator(), [&](std::string_view s) { return hydrate(s, variables); });
  auto root = json::Reader::root(*doc, manifest);
  if (!root.expectObject()) return root.error();
  ext.name = root.str("name");
  ext.version = root.str("version");
  if (!root.ok()) return root.error();
  if (ext.name.empty() || ext.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") !=
                              std::string::npos) {
    return makeError(Errc::invalid_params, manifest + ".name: \"" + ext.name +
                                               "\" is not an extension name: only letters, digits and '-'");
  }
  // The settings' values, in the extension's own .env (its name's folder).
  if (auto values = readText(extensionsDir + "/" + ext.name + "/.env")) ext.settingValues = parseDotenv(*values);
  auto lookup = [&](const std::string& name) -> std::optional<std::string> {
    for (const auto& [key, value] : ext.settingValues) {
      if (key == name) return value;
    }
    return env(name);
  };
  rewriteStrings(*doc, doc->GetAllocator(), [&](std::string_view s) { return resolveEnv(s, lookup); });
  ext.description = root.optStr("description").value_or("");
  ext.excludeTools = root.optStrings("excludeTools").value_or(std::vector<std::string>{});
  readSettings(root, ext);
  ProgramSettings programs;
  json::Document servers;
  servers.SetObject();
  if (const json::Value* listed = json::find(*doc, "mcpServers")) {
    servers.AddMember("mcpServers", json::Value(*listed, servers.GetAllocator()), servers.GetAllocator());
  }
  auto serversReader = json::Reader::root(servers, manifest);
  decodeProgramSettings(serversReader, tools::mcp::ServerConfig::Origin::userSettings, lookup, programs);
  if (!serversReader.ok()) return serversReader.error();
  if (!root.ok()) return root.error();
  const auto values = declaredValues(ext);
  for (auto& server : programs.mcpServers) {
    server.trust = false;  // an extension cannot decide its own tools run unasked
    if (auto* stdio = std::get_if<tools::mcp::StdioTransport>(&server.transport)) {
      for (const auto& value : values) {
        if (std::none_of(stdio->env.begin(), stdio->env.end(), [&](const auto& e) { return e.first == value.first; })) {
          stdio->env.push_back(value);
        }
      }
    }
  }
  ext.mcpServers = std::move(programs.mcpServers);
  std::vector<std::string> contextNames{"GEMINI.md"};
  if (const json::Value* named = json::find(*doc, "contextFileName")) {
    if (named->IsString()) contextNames = {named->GetString()};
    else if (auto list = root.optStrings("contextFileName")) contextNames = *list;
    if (!root.ok()) return root.error();
  }
  for (const auto& name : contextNames) {
    std::string why;
    if (auto path = contextFilePath(name, ext.path, why)) ext.contextFiles.push_back(std::move(*path));
    if (!why.empty()) notes.push_back(manifest + ".contextFileName: \"" + name + "\" not used: " + why);
  }
  for (const auto& [key, value] : ext.settingValues) variables.emplace(key, value);
  readHooks(ext, variables, notes);
  readSkills(ext, variables, notes);
  ext.commandsDir = ext.path + "/commands";
  if (isDir(ext.path + "/policies")) ext.policiesDir = ext.path + "/policies";
  return ext;
}

std::string filteredOut(const std::optional<InstallMetadata>& install, const ExtensionFilter& filter) {
  if (!filter.allowedSources.empty()) {
    if (!install) return "security.allowedExtensions is set and it has no " + std::string(kInstallMetadataName);
    std::error_code ec;
    std::string source = install->type == "git" ? install->source : fs::weakly_canonical(install->source, ec).string();
    for (const auto& pattern : filter.allowedSources) {
      try {
        if (std::regex_search(source, std::regex(pattern, std::regex::ECMAScript))) return "";
      } catch (const std::regex_error&) {
        return "security.allowedExtensions holds \"" + pattern + "\", which is not a regular expression";
      }
    }
    return "security.allowedExtensions allows no extension from " + install->source;
  }
  if (filter.blockGit && install && (install->type == "git" || install->type == "github-release")) {
    return "it was installed from git, and security.blockGitExtensions is set";
  }
  return "";
}

ExtensionScan loadExtensions(const std::string& geminiDir, const std::string& workspaceDir, const EnvLookup& env,
                             const ExtensionFilter& filter) {
  ExtensionScan scan;
  if (geminiDir.empty()) return scan;
  const std::string dir = geminiDir + "/extensions";
  if (!isDir(dir)) return scan;
  ExtensionEnablement enablement(dir + "/" + kEnablementName);
  auto rules = enablement.read();
  if (!rules) {
    scan.problems.push_back(rules.error().message + " (every extension counts as enabled)");
    rules = std::map<std::string, std::vector<std::string>>{};
  }
  std::vector<std::string> folders;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec)) folders.push_back(it->path().string());
  }
  std::sort(folders.begin(), folders.end());
  for (const auto& folder : folders) {
    if (std::string why = filteredOut(readInstallMetadata(folder), filter); !why.empty()) {
      scan.problems.push_back(folder + ": not loaded: " + why);
      continue;
    }
    auto ext = readExtension(folder, dir, workspaceDir, env, scan.problems);
    if (!ext) {
      scan.problems.push_back(ext.error().message);
      continue;
    }
    if (std::any_of(scan.extensions.begin(), scan.extensions.end(), [&](const Extension& e) { return e.name == ext->name; })) {
      scan.problems.push_back(folder + ": not used: another extension is named \"" + ext->name + "\"");
      continue;
    }
    auto it = rules->find(ext->name);
    ext->enabled = it == rules->end() || ExtensionEnablement::enabledIn(it->second, workspaceDir);
    scan.extensions.push_back(std::move(ext).value());
  }
  return scan;
}

}  // namespace lathe::engine
