// Validates tool parameters against a tool's JSON Schema (RapidJSON's draft-04
// validator) and turns a failure into a sentence naming the bad field.
// Compiled once per tool; validate() is const and thread-safe.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "protocol/base/json.h"

namespace lathe::tools {

class SchemaValidator {
 public:
  explicit SchemaValidator(const std::string& schemaJson);
  ~SchemaValidator();

  // nullopt when valid, else a message such as "params.file_path: must be a string".
  std::optional<std::string> validate(const json::Value& params) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lathe::tools
