// ACP configuration options encoding.
#include "protocol/acp/config_options.h"

namespace lathe::acp {

void writeConfigOptions(json::Writer& w, const std::vector<ConfigOption>& options) {
  w.StartArray();
  for (const auto& option : options) {
    w.StartObject();
    json::put(w, "id", option.id);
    json::put(w, "name", option.name);
    if (!option.description.empty()) json::put(w, "description", option.description);
    if (!option.category.empty()) json::put(w, "category", option.category);
    json::put(w, "type", "select");
    json::put(w, "currentValue", option.currentValue);
    json::key(w, "options");
    w.StartArray();
    for (const auto& choice : option.choices) {
      w.StartObject();
      json::put(w, "value", choice.value);
      json::put(w, "name", choice.name);
      if (!choice.description.empty()) json::put(w, "description", choice.description);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
}

Result<SetConfigOptionRequest> SetConfigOptionRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  SetConfigOptionRequest req;
  req.sessionId = r.str("sessionId");
  req.configId = r.str("configId");
  if (auto type = r.optStr("type"); type && *type == "boolean" && r.ok()) {
    r.fail("params.type", "Lathe's options are selectors; none takes a boolean");
  }
  req.value = r.str("value");
  return finish(r, std::move(req));
}

json::Raw SetConfigOptionResponse::toJson() const {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    json::key(w, "configOptions");
    writeConfigOptions(w, configOptions);
    w.EndObject();
  })};
}

}  // namespace lathe::acp
