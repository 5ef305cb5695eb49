// JSON Schema validation with readable messages.
#include "tools/core/schema_validator.h"

#include <rapidjson/pointer.h>
#include <rapidjson/schema.h>

#include <mutex>
#include <unordered_map>

namespace lathe::tools {
namespace {

std::string pointerPath(const rapidjson::Pointer& pointer) {
  std::string path = "params";
  for (size_t i = 0; i < pointer.GetTokenCount(); ++i) {
    const auto& token = pointer.GetTokens()[i];
    if (token.index != rapidjson::kPointerInvalidIndex) {
      path += "[" + std::to_string(token.index) + "]";
    } else {
      path += ".";
      path.append(token.name, token.length);
    }
  }
  return path;
}

std::string joinStrings(const json::Value& array) {
  std::string out;
  if (!array.IsArray()) return out;
  for (const auto& item : array.GetArray()) {
    if (!out.empty()) out += ", ";
    out += item.IsString() ? std::string("\"") + item.GetString() + "\"" : json::stringify(item);
  }
  return out;
}

}  // namespace

struct SchemaValidator::Impl {
  json::Document schemaDoc;
  std::unique_ptr<rapidjson::SchemaDocument> schema;
};

SchemaValidator::SchemaValidator(const std::string& schemaJson) : impl_(std::make_unique<Impl>()) {
  impl_->schemaDoc.Parse(schemaJson.c_str());
  if (impl_->schemaDoc.HasParseError()) impl_->schemaDoc.SetObject();  // tools ship valid schemas; tested
  impl_->schema = std::make_unique<rapidjson::SchemaDocument>(impl_->schemaDoc);
}

SchemaValidator::~SchemaValidator() = default;

std::shared_ptr<const SchemaValidator> SchemaValidator::shared(const std::string& schemaJson) {
  static std::mutex mutex;
  static auto* compiled = new std::unordered_map<std::string, std::weak_ptr<const SchemaValidator>>;  // never freed: tools may outlive statics
  std::lock_guard lock(mutex);
  std::weak_ptr<const SchemaValidator>& slot = (*compiled)[schemaJson];
  if (auto existing = slot.lock()) return existing;
  // Schemas nobody holds any more (an MCP server's tools after it went) are forgotten as new ones come.
  std::erase_if(*compiled, [&](const auto& entry) { return entry.second.expired() && &entry.second != &slot; });
  auto made = std::make_shared<const SchemaValidator>(schemaJson);
  slot = made;
  return made;
}

std::optional<std::string> SchemaValidator::validate(const json::Value& params) const {
  rapidjson::SchemaValidator validator(*impl_->schema);
  if (params.Accept(validator)) return std::nullopt;

  std::string keyword = validator.GetInvalidSchemaKeyword();
  rapidjson::Pointer docPointer = validator.GetInvalidDocumentPointer();
  rapidjson::Pointer schemaPointer = validator.GetInvalidSchemaPointer();
  std::string where = pointerPath(docPointer);
  const json::Value* rule = schemaPointer.Get(impl_->schemaDoc);
  const json::Value* actual = docPointer.Get(params);

  if (keyword == "required" && rule && actual) {
    if (const json::Value* required = json::find(*rule, "required"); required && required->IsArray()) {
      for (const auto& name : required->GetArray()) {
        if (name.IsString() && (!actual->IsObject() || !actual->HasMember(name.GetString()))) {
          return where + "." + name.GetString() + ": required parameter is missing";
        }
      }
    }
  }
  if (keyword == "type" && rule) {
    if (const json::Value* type = json::find(*rule, "type")) {
      std::string expected = type->IsString() ? type->GetString() : joinStrings(*type);
      return where + ": must be of type " + expected;
    }
  }
  if (keyword == "enum" && rule) {
    if (const json::Value* values = json::find(*rule, "enum")) return where + ": must be one of " + joinStrings(*values);
  }
  if (keyword == "additionalProperties") return where + ": has a property that is not allowed";
  if ((keyword == "minimum" || keyword == "maximum" || keyword == "minLength" || keyword == "minItems") && rule) {
    if (const json::Value* bound = json::find(*rule, keyword.c_str())) {
      return where + ": violates " + keyword + " " + json::stringify(*bound);
    }
  }
  return where + ": does not satisfy the schema (" + keyword + ")";
}

}  // namespace lathe::tools
