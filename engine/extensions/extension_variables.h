// The substitutions Gemini CLI 0.61 makes in an extension's files, and the
// .env file its settings' values are kept in. Pure; any thread.
//
// - hydrate: `${name}` for the names given (extensionPath, workspacePath,
//   `/`, pathSeparator, and in hooks the settings' values); any other
//   `${...}` stays as written.
// - resolveEnv: `$NAME`, `${NAME}` and `${NAME:-default}` from the
//   extension's .env first, then the environment; unknown ones stay.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/base/json.h"

namespace lathe::engine {

using Variables = std::map<std::string, std::string, std::less<>>;
using Lookup = std::function<std::optional<std::string>(const std::string&)>;

std::string hydrate(std::string_view text, const Variables& variables);
std::string resolveEnv(std::string_view text, const Lookup& lookup);

// Applies `change` to every string of a JSON value (object keys left as
// they are; Gemini CLI's skipped keys __proto__, constructor and prototype
// dropped).
void rewriteStrings(json::Value& value, json::Document::AllocatorType& alloc,
                    const std::function<std::string(std::string_view)>& change);

// KEY=value lines (`export` allowed, '#' comments, single or double quotes,
// \n in double quotes), as the dotenv package reads them.
std::vector<std::pair<std::string, std::string>> parseDotenv(std::string_view text);

}  // namespace lathe::engine
