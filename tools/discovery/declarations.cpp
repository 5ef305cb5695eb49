// Parsing a discovery command's output.
#include "tools/discovery/declarations.h"

#include <cctype>

#include "protocol/base/json.h"

namespace lathe::tools::discovery {
namespace {

constexpr const char* kEmptySchema = R"({"type":"object","properties":{}})";

// Gemini-style `parameters` spell types in capitals (OBJECT, STRING): JSON
// Schema wants them in lower case. Nesting is bounded by the parser (256).
void lowerTypes(json::Value& value, json::Document::AllocatorType& alloc) {
  if (value.IsArray()) {
    for (auto& item : value.GetArray()) lowerTypes(item, alloc);
    return;
  }
  if (!value.IsObject()) return;
  for (auto& member : value.GetObject()) {
    std::string_view key(member.name.GetString(), member.name.GetStringLength());
    if (key == "type" && member.value.IsString()) {
      std::string lower(member.value.GetString(), member.value.GetStringLength());
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      member.value.SetString(lower.data(), static_cast<rapidjson::SizeType>(lower.size()), alloc);
      continue;
    }
    lowerTypes(member.value, alloc);
  }
}

Status addDeclaration(const json::Value& item, const std::string& where, std::vector<Declaration>& out) {
  if (!item.IsObject()) return makeError(Errc::invalid_params, where + ": expected an object");
  auto name = json::getStr(item, "name");
  if (!name || name->empty()) return makeError(Errc::invalid_params, where + ": a declaration needs a \"name\"");
  Declaration declaration;
  declaration.name = *name;
  declaration.description = json::getStr(item, "description").value_or("");
  if (const json::Value* schema = json::find(item, "parametersJsonSchema")) {
    if (!schema->IsObject()) return makeError(Errc::invalid_params, where + ".parametersJsonSchema: expected an object");
    declaration.schema = json::stringify(*schema);
  } else if (const json::Value* params = json::find(item, "parameters")) {
    if (!params->IsObject()) return makeError(Errc::invalid_params, where + ".parameters: expected an object");
    json::Document copy;
    copy.CopyFrom(*params, copy.GetAllocator());
    lowerTypes(copy, copy.GetAllocator());
    declaration.schema = json::stringify(copy);
  } else {
    declaration.schema = kEmptySchema;
  }
  out.push_back(std::move(declaration));
  return {};
}

}  // namespace

Result<std::vector<Declaration>> parseDeclarations(std::string_view output) {
  while (!output.empty() && std::isspace(static_cast<unsigned char>(output.back()))) output.remove_suffix(1);
  while (!output.empty() && std::isspace(static_cast<unsigned char>(output.front()))) output.remove_prefix(1);
  if (output.empty()) return makeError(Errc::invalid_params, "it printed nothing; expected a JSON array of function declarations");
  auto doc = json::parse(output);
  if (!doc) return makeError(Errc::invalid_params, "its output is not JSON (" + doc.error().message + ")");
  if (!doc->IsArray()) return makeError(Errc::invalid_params, "its output must be a JSON array of function declarations");
  std::vector<Declaration> out;
  size_t index = 0;
  for (const auto& item : doc->GetArray()) {
    std::string where = "item " + std::to_string(index++);
    const json::Value* group = nullptr;
    const char* groupKey = nullptr;
    for (const char* key : {"functionDeclarations", "function_declarations"}) {
      if (item.IsObject() && json::find(item, key)) {
        group = json::find(item, key);
        groupKey = key;
        break;
      }
    }
    if (!group) {
      if (auto status = addDeclaration(item, where, out); !status) return status.error();
      continue;
    }
    if (!group->IsArray()) return makeError(Errc::invalid_params, where + "." + groupKey + ": expected an array");
    size_t inner = 0;
    for (const auto& declaration : group->GetArray()) {
      std::string at = where + "." + groupKey + "[" + std::to_string(inner++) + "]";
      if (auto status = addDeclaration(declaration, at, out); !status) return status.error();
    }
  }
  return out;
}

}  // namespace lathe::tools::discovery
