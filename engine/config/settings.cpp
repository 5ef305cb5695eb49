// Settings file reading.
#include "engine/config/settings.h"

#include <fstream>
#include <sstream>

#include "engine/config/settings_table.h"
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

namespace {

// The object holding a dotted name's last part ("model" for model.name, the
// root for proxy); nullopt when a part is absent (or not an object: then the
// reader has failed, naming it).
std::optional<json::Reader> parentOf(json::Reader root, std::string_view name, std::string& leaf) {
  std::optional<json::Reader> parent = root;
  size_t dot;
  while (parent && (dot = name.find('.')) != std::string_view::npos) {
    parent = parent->optObject(std::string(name.substr(0, dot)).c_str());
    name.remove_prefix(dot + 1);
  }
  leaf = std::string(name);
  return parent;
}

}  // namespace

Status mergeSettingsFile(const std::string& path, Settings& settings, SettingsScope scope, const EnvLookup& env) {
  auto read = readSettingsDocument(path);
  if (!read) return read.error();
  if (!*read) return {};
  auto root = json::Reader::root(**read, path);
  for (const SettingKey& row : settingsTable()) {
    if (!row.read || (scope == SettingsScope::workspace && !row.readInWorkspace)) continue;
    std::string leaf;
    auto parent = parentOf(root, row.name, leaf);
    if (!parent) continue;
    SettingSource source{*parent, leaf.c_str(), scope, env};
    row.read(source, settings);
  }
  if (!root.ok()) return root.error();
  return {};
}

}  // namespace lathe::engine
