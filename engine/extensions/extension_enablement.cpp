// Gemini CLI's per-folder enablement rules.
#include "engine/extensions/extension_enablement.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "protocol/base/json.h"
#include "protocol/base/private_file.h"

namespace lathe::engine {
namespace {

std::string withSlashes(std::string path) {
  std::replace(path.begin(), path.end(), '\\', '/');
  if (path.empty() || path.front() != '/') path.insert(path.begin(), '/');
  if (path.back() != '/') path += '/';
  return path;
}

struct Rule {
  std::string base;  // "/a/b/"
  bool disable = false;
  bool subfolders = false;

  static Rule fromFile(std::string_view text) {
    Rule rule;
    rule.disable = text.starts_with("!");
    if (rule.disable) text.remove_prefix(1);
    rule.subfolders = text.ends_with("*");
    if (rule.subfolders) text.remove_suffix(1);
    rule.base = std::string(text);
    return rule;
  }
  static Rule forFolder(const std::string& folder, bool disable) { return {withSlashes(folder), disable, true}; }

  // Gemini CLI's glob: `*` (with the '/' before it) matches anything or nothing.
  bool matches(const std::string& path) const {
    std::string glob = base + (subfolders ? "*" : "");
    std::string pattern = "^";
    for (size_t i = 0; i < glob.size(); ++i) {
      char c = glob[i];
      if (c == '*') {
        pattern += "(.*)?";
        continue;
      }
      if (c == '/' && i + 1 < glob.size() && glob[i + 1] == '*') {
        pattern += "(/.*)?";
        ++i;
        continue;
      }
      if (std::string_view(".+?^${}()|[]\\").find(c) != std::string_view::npos) pattern += '\\';
      pattern += c;
    }
    return std::regex_match(path, std::regex(pattern + "$"));
  }
  std::string text() const { return (disable ? "!" : "") + base + (subfolders ? "*" : ""); }
  bool operator==(const Rule& other) const = default;
};

}  // namespace

Result<std::map<std::string, std::vector<std::string>>> ExtensionEnablement::read() const {
  std::map<std::string, std::vector<std::string>> rules;
  std::ifstream in(file_, std::ios::binary);
  if (!in) return rules;
  std::stringstream text;
  text << in.rdbuf();
  auto doc = json::parse(text.str());
  if (!doc) return makeError(Errc::parse_error, file_ + ": " + doc.error().message);
  auto reader = json::Reader::root(*doc, file_);
  if (!reader.expectObject()) return reader.error();
  for (const auto& member : doc->GetObject()) {
    std::string name(member.name.GetString(), member.name.GetStringLength());
    json::Reader entry = reader.object(name.c_str());
    auto overrides = entry.optStrings("overrides");
    if (!overrides) entry.fail(entry.path() + ".overrides", "required list of strings is missing");
    if (!reader.ok()) return reader.error();
    rules[name] = std::move(*overrides);
  }
  return rules;
}

bool ExtensionEnablement::enabledIn(const std::vector<std::string>& rules, const std::string& folder) {
  bool enabled = true;
  const std::string path = withSlashes(folder);
  for (const auto& text : rules) {
    Rule rule = Rule::fromFile(text);
    if (rule.matches(path)) enabled = !rule.disable;
  }
  return enabled;
}

bool ExtensionEnablement::isEnabled(const std::string& extension, const std::string& folder) const {
  auto rules = read();
  if (!rules) return true;
  auto it = rules->find(extension);
  return it == rules->end() || enabledIn(it->second, folder);
}

Status ExtensionEnablement::addRule(const std::string& extension, const std::string& text) {
  auto rules = read();
  if (!rules) return rules.error();
  Rule added = Rule::fromFile(text);
  auto& list = (*rules)[extension];
  std::erase_if(list, [&](const std::string& existing) {
    Rule old = Rule::fromFile(existing);
    const bool sameFolder = old.base == added.base;
    const bool below = added.subfolders && added.matches(old.base);
    return sameFolder || below;
  });
  list.push_back(added.text());
  return write(*rules);
}

Status ExtensionEnablement::enable(const std::string& extension, const std::string& folder) {
  return addRule(extension, Rule::forFolder(folder, false).text());
}

Status ExtensionEnablement::disable(const std::string& extension, const std::string& folder) {
  return addRule(extension, Rule::forFolder(folder, true).text());
}

Status ExtensionEnablement::remove(const std::string& extension) {
  auto rules = read();
  if (!rules) return rules.error();
  if (!rules->erase(extension)) return {};
  return write(*rules);
}

Status ExtensionEnablement::write(const std::map<std::string, std::vector<std::string>>& rules) const {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(file_).parent_path(), ec);
  std::string text = json::build([&](json::Writer& w) {
    w.StartObject();
    for (const auto& [name, list] : rules) {
      json::key(w, name);
      w.StartObject();
      json::key(w, "overrides");
      json::array(w, [&] {
        for (const auto& rule : list) json::str(w, rule);
      });
      w.EndObject();
    }
    w.EndObject();
  });
  return writePrivateFile(file_, text + "\n");
}

}  // namespace lathe::engine
