// How a tool describes itself to a model: plain data that each provider
// encodes for its own wire (Gemini's parametersJsonSchema, OpenAI's
// tools[].function.parameters). Plain value; any thread.
#pragma once

#include <string>

namespace lathe::tools {

struct ToolDeclaration {
  std::string name;
  std::string description;
  std::string parametersSchema;  // a JSON Schema object, as JSON text
};

}  // namespace lathe::tools
