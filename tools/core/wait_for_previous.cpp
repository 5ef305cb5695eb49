// wait_for_previous in declarations and arguments. Any thread.
#include "tools/core/wait_for_previous.h"

namespace lathe::tools {

std::string withWaitForPrevious(const std::string& schema) {
  auto doc = json::parse(schema);
  if (!doc || !doc->IsObject()) return schema;
  auto type = doc->FindMember("type");
  if (type == doc->MemberEnd() || !type->value.IsString() || std::string_view(type->value.GetString()) != "object") {
    return schema;
  }
  auto& alloc = doc->GetAllocator();
  auto props = doc->FindMember("properties");
  if (props == doc->MemberEnd()) {
    doc->AddMember("properties", json::Value(rapidjson::kObjectType), alloc);
    props = doc->FindMember("properties");
  }
  if (!props->value.IsObject() || props->value.HasMember(kWaitForPrevious)) return schema;
  json::Value property(rapidjson::kObjectType);
  property.AddMember("type", "boolean", alloc);
  property.AddMember("description",
                     "Set to true to wait for all previously requested tools in this turn to complete before "
                     "starting. Set to false (or omit) to run in parallel. Use true when this tool depends on the "
                     "output of previous tools.",
                     alloc);
  props->value.AddMember(json::Value(kWaitForPrevious, alloc), property, alloc);
  return json::stringify(*doc);
}

bool waitsForPrevious(const json::Value& args) {
  if (!args.IsObject()) return false;
  auto it = args.FindMember(kWaitForPrevious);
  return it != args.MemberEnd() && it->value.IsBool() && it->value.GetBool();
}

bool waitsForPrevious(const std::string& argsJson) {
  if (argsJson.find(kWaitForPrevious) == std::string::npos) return false;  // most calls: no parse
  auto doc = json::parse(argsJson);
  return doc && waitsForPrevious(*doc);
}

}  // namespace lathe::tools
