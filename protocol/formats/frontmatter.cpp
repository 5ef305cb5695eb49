#include "protocol/formats/frontmatter.h"

#include <algorithm>

#include "protocol/formats/yaml.h"

namespace lathe::formats {
namespace {

// The end of the line starting at `at` (its '\n' excluded, a '\r' before it too).
size_t lineEnd(std::string_view text, size_t at, size_t& next) {
  size_t newline = text.find('\n', at);
  next = newline == std::string_view::npos ? text.size() : newline + 1;
  size_t end = newline == std::string_view::npos ? text.size() : newline;
  if (end > at && text[end - 1] == '\r') --end;
  return end;
}

}  // namespace

std::optional<FrontmatterText> splitFrontmatter(std::string_view text) {
  size_t next = 0;
  if (lineEnd(text, 0, next) != 3 || text.substr(0, 3) != "---" || next == text.size()) return std::nullopt;
  const size_t yamlStart = next;
  int line = 2;
  for (size_t at = yamlStart; at < text.size(); ++line) {
    size_t end = lineEnd(text, at, next);
    // A closing fence: "---" at the start of a line (what follows on it is ignored, as Gemini CLI does).
    if (at > yamlStart && text.substr(at, 3) == "---") {
      size_t yamlEnd = at - 1;  // drop the newline before the fence
      if (yamlEnd > yamlStart && text[yamlEnd - 1] == '\r') --yamlEnd;
      FrontmatterText out;
      out.yaml = text.substr(yamlStart, yamlEnd - yamlStart);
      size_t bodyStart = std::min(end, text.size());
      if (bodyStart < text.size() && text[bodyStart] == '\r') ++bodyStart;
      if (bodyStart < text.size() && text[bodyStart] == '\n') ++bodyStart;
      out.body = text.substr(bodyStart);
      out.bodyLine = line + 1;
      return out;
    }
    at = next;
  }
  return std::nullopt;
}

Result<Frontmatter> parseFrontmatter(std::string_view text, std::string source) {
  auto parts = splitFrontmatter(text);
  if (!parts) {
    return makeError(Errc::parse_error, source + ": no frontmatter: the file must start with a line '---', "
                                                 "then YAML fields, then a line '---'");
  }
  auto fields = parseYaml(parts->yaml, source, 2);
  if (!fields) return fields.error();
  if (!fields->value.IsObject()) {
    return makeError(Errc::parse_error, source + ":2: the frontmatter must be YAML fields (name: value)");
  }
  Frontmatter out;
  out.fields = std::move(fields).value();
  out.body = std::string(parts->body);
  out.bodyLine = parts->bodyLine;
  return out;
}

}  // namespace lathe::formats
