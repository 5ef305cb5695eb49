// Reading SKILL.md: frontmatter (YAML, else Gemini CLI's line fallback) and body.
#include "tools/skills/skill.h"

#include <fstream>
#include <optional>
#include <sstream>

#include "protocol/base/text.h"
#include "protocol/formats/frontmatter.h"
#include "protocol/formats/yaml.h"

namespace lathe::tools {
namespace {

struct Fields {
  std::optional<std::string> name;
  std::optional<std::string> description;
};

Fields yamlFields(std::string_view yaml, const std::string& path) {
  Fields out;
  auto doc = formats::parseYaml(yaml, path, 2);
  if (!doc || !doc->value.IsObject()) return out;
  out.name = json::getStr(doc->value, "name");
  out.description = json::getStr(doc->value, "description");
  return out;
}

// "key: value" at a line's start (blanks before it allowed).
std::optional<std::string_view> valueAfter(std::string_view line, std::string_view key) {
  std::string_view rest = text::trimLeft(line);
  if (!rest.starts_with(key) || rest.size() <= key.size() || rest[key.size()] != ':') return std::nullopt;
  return text::trim(rest.substr(key.size() + 1));
}

// Gemini CLI's fallback: `name:` and `description:` lines, the description
// going on over the indented lines after it, joined with spaces.
Fields lineFields(std::string_view yaml) {
  std::vector<std::string_view> lines;
  for (size_t at = 0; at <= yaml.size();) {
    size_t end = yaml.find('\n', at);
    if (end == std::string_view::npos) end = yaml.size();
    std::string_view line = yaml.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    at = end + 1;
  }
  Fields out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (auto name = valueAfter(lines[i], "name")) {
      out.name = std::string(*name);
      continue;
    }
    auto first = valueAfter(lines[i], "description");
    if (!first) continue;
    std::vector<std::string> parts{std::string(*first)};
    while (i + 1 < lines.size() && !lines[i + 1].empty() && (lines[i + 1][0] == ' ' || lines[i + 1][0] == '\t') &&
           !text::trim(lines[i + 1]).empty()) {
      parts.emplace_back(text::trim(lines[++i]));
    }
    std::erase_if(parts, [](const std::string& part) { return part.empty(); });
    out.description = text::join(parts, " ");
  }
  return out;
}

// A name Gemini CLI can use as a folder name.
std::string sanitizedName(std::string name) {
  for (char& c : name) {
    if (std::string_view(":\\/<>*?\"|").find(c) != std::string_view::npos) c = '-';
  }
  return name;
}

}  // namespace

Result<Skill> parseSkill(std::string_view text, const std::string& path) {
  auto parts = formats::splitFrontmatter(text);
  if (!parts) {
    return makeError(Errc::parse_error, path + ": no frontmatter: SKILL.md must start with a line '---', then "
                                               "name: and description: lines, then a line '---'");
  }
  Fields fields = yamlFields(parts->yaml, path);
  if (!fields.name || !fields.description) fields = lineFields(parts->yaml);
  if (!fields.name || text::trim(*fields.name).empty()) {
    return makeError(Errc::parse_error, path + ":2: the frontmatter has no name (a line `name: my-skill`)");
  }
  if (!fields.description) {
    return makeError(Errc::parse_error, path + ":2: the frontmatter has no description (a line `description: ...`)");
  }
  Skill skill;
  skill.name = sanitizedName(*fields.name);
  skill.description = std::move(*fields.description);
  skill.location = path;
  skill.body = std::string(text::trim(parts->body));
  return skill;
}

Result<Skill> readSkillFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(Errc::io, path + ": cannot be read");
  std::stringstream content;
  content << in.rdbuf();
  return parseSkill(content.str(), path);
}

}  // namespace lathe::tools
