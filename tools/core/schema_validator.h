// Validates tool parameters against a tool's JSON Schema (RapidJSON's draft-04
// validator) and turns a failure into a sentence naming the bad field.
// Compiled once per schema text and shared by every tool that has it (each
// session's built-in tools have the same fixed schemas); validate() is const
// and thread-safe.
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

  // The validator of this schema text: the one already compiled while any
  // tool still holds it, else a new one. Thread-safe.
  static std::shared_ptr<const SchemaValidator> shared(const std::string& schemaJson);

  // nullopt when valid, else a message such as "params.file_path: must be a string".
  std::optional<std::string> validate(const json::Value& params) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lathe::tools
