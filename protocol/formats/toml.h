// TOML files (custom commands, policy rules) read and written with toml++,
// whose heavy header stays inside toml.cpp. Dates and times become their TOML
// text.
#pragma once

#include <string>
#include <string_view>

#include "protocol/base/result.h"
#include "protocol/formats/located_document.h"

namespace lathe::formats {

// Parses TOML text into a JSON object. A syntax error names the source, line
// and column: "commands/git/msg.toml:3:8: expected '='".
Result<LocatedDocument> parseToml(std::string_view text, std::string source);

// Writes a JSON object as TOML text (tables, arrays of tables, strings,
// integers, floats, booleans), so parseToml reads the same values back. An
// error names the path of a value TOML cannot hold (null).
Result<std::string> writeToml(const json::Value& object);

}  // namespace lathe::formats
