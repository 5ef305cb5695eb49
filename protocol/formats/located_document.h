// A configuration file read into JSON, with the line each key came from, so
// every reader of TOML and YAML files (commands, policies, skills, agents)
// validates with json::Reader and reports "file:line: key: problem".
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "protocol/base/json.h"
#include "protocol/base/result.h"

namespace lathe::formats {

struct LocatedDocument {
  json::Document value;               // an object for TOML; any value for YAML
  std::map<std::string, int> lines;   // "a.b[2].c" (json::Reader's paths) -> 1-based line
  std::string source;                 // the file's path, as errors name it

  // The line of `path`, else of its nearest ancestor that has one, else 0.
  int lineOf(std::string_view path) const;
  // "source:line" (or just the source when no line is known).
  std::string where(std::string_view path) const;
  // A json::Reader error ("path: problem") located in the file:
  // "source:line: path: problem".
  Error locate(const Error& readerError) const;
};

}  // namespace lathe::formats
