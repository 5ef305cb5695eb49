// Markdown with YAML frontmatter (SKILL.md, agent definitions): the text
// between a first line "---" and the next line "---", then the body, as
// Gemini CLI splits them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "protocol/base/result.h"
#include "protocol/formats/located_document.h"

namespace lathe::formats {

struct FrontmatterText {
  std::string_view yaml;  // between the fences
  std::string_view body;  // after the closing fence's line (may be empty)
  int bodyLine = 0;       // the 1-based line the body starts on
};

// The two parts, or nothing when the text does not open with a fenced block.
std::optional<FrontmatterText> splitFrontmatter(std::string_view text);

struct Frontmatter {
  LocatedDocument fields;  // an object
  std::string body;
  int bodyLine = 0;
};

// Splits and parses: an error names the source and says what is wrong (no
// frontmatter, bad YAML with its line, frontmatter that is not a mapping).
Result<Frontmatter> parseFrontmatter(std::string_view text, std::string source);

}  // namespace lathe::formats
