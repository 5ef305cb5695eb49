// ACP configuration options encoding.
#include "protocol/acp/config_options.h"

namespace lathe::acp {

void writeConfigOptions(json::Writer& w, const std::vector<ConfigOption>& options) {
  json::array(w, [&] {
    for (const auto& option : options) {
      json::object(w, [&] {
        json::put(w, "id", option.id);
        json::put(w, "name", option.name);
        if (!option.description.empty()) json::put(w, "description", option.description);
        if (!option.category.empty()) json::put(w, "category", option.category);
        json::put(w, "type", "select");
        json::put(w, "currentValue", option.currentValue);
        json::array(w, "options", [&] {
          for (const auto& choice : option.choices) {
            json::object(w, [&] {
              json::put(w, "value", choice.value);
              json::put(w, "name", choice.name);
              if (!choice.description.empty()) json::put(w, "description", choice.description);
            });
          }
        });
      });
    }
  });
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
  return {json::buildObject([&](json::Writer& w) {
    json::key(w, "configOptions");
    writeConfigOptions(w, configOptions);
  })};
}

}  // namespace lathe::acp
