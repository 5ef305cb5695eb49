// What a discovery command prints: a JSON array whose items are function
// declarations ({name, description, parametersJsonSchema | parameters}) or
// objects holding `functionDeclarations` / `function_declarations` arrays of
// them. Parsed into plain declarations with a JSON Schema each. Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/result.h"

namespace lathe::tools::discovery {

struct Declaration {
  std::string name;         // as the command spells it (passed back to the call command)
  std::string description;
  std::string schema;       // a JSON Schema object; {"type":"object","properties":{}} when none was given
};

// An error says what is wrong and where (item index), fit for the person.
Result<std::vector<Declaration>> parseDeclarations(std::string_view output);

}  // namespace lathe::tools::discovery
