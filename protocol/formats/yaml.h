// YAML (the frontmatter of skills and agents) read with yaml-cpp, whose
// headers stay inside yaml.cpp. Plain scalars resolve as YAML 1.2's core
// schema does (null, booleans, integers, floats); quoted ones stay strings.
#pragma once

#include <string>
#include <string_view>

#include "protocol/base/result.h"
#include "protocol/formats/located_document.h"

namespace lathe::formats {

// Parses YAML text into JSON. `firstLine` is the file line the text starts on
// (frontmatter starts on line 2), so errors and lines name the file's lines.
// Input nested deeper than json::kMaxDepth, or expanding through aliases to
// more than a bounded number of nodes, is refused.
Result<LocatedDocument> parseYaml(std::string_view text, std::string source, int firstLine = 1);

}  // namespace lathe::formats
