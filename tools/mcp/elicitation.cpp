// Between MCP's elicitation and ACP's: the two share the form schema, except
// that MCP still allows the legacy `enumNames` beside `enum`, which ACP
// spells as `oneOf` [{const, title}].
#include "tools/mcp/elicitation.h"

namespace lathe::tools::mcp {
namespace {

// One property as ACP takes it: `enum` with `enumNames` becomes `oneOf`.
void writeProperty(json::Writer& w, const json::Value& property) {
  const json::Value* values = json::find(property, "enum");
  const json::Value* names = json::find(property, "enumNames");
  const bool titled = values && names && values->IsArray() && names->IsArray() && values->Size() == names->Size();
  json::object(w, [&] {
    for (const auto& member : property.GetObject()) {
      std::string_view key(member.name.GetString(), member.name.GetStringLength());
      if (key == "enumNames" || (titled && key == "enum")) continue;
      json::key(w, key);
      member.value.Accept(w);
    }
    if (!titled) return;
    json::array(w, "oneOf", [&] {
      for (rapidjson::SizeType i = 0; i < values->Size(); ++i) {
        json::object(w, [&] {
          json::key(w, "const");
          (*values)[i].Accept(w);
          json::key(w, "title");
          (*names)[i].Accept(w);
        });
      }
    });
  });
}

Result<json::Raw> formSchema(json::Reader& r) {
  const json::Value* schema = json::find(*r.value(), "requestedSchema");
  if (!schema || !schema->IsObject()) return makeError(Errc::invalid_params, "params.requestedSchema: expected an object");
  const json::Value* properties = json::find(*schema, "properties");
  if (!properties || !properties->IsObject()) {
    return makeError(Errc::invalid_params, "params.requestedSchema.properties: expected an object");
  }
  for (const auto& member : properties->GetObject()) {
    if (!member.value.IsObject() || !json::getStr(member.value, "type")) {
      return makeError(Errc::invalid_params, "params.requestedSchema.properties." +
                                                 std::string(member.name.GetString(), member.name.GetStringLength()) +
                                                 ": expected an object with a type");
    }
  }
  return json::Raw{json::buildObject([&](json::Writer& w) {
    for (const auto& member : schema->GetObject()) {
      std::string_view key(member.name.GetString(), member.name.GetStringLength());
      json::key(w, key);
      if (key != "properties") {
        member.value.Accept(w);
        continue;
      }
      json::object(w, [&] {
        for (const auto& property : properties->GetObject()) {
          json::key(w, std::string_view(property.name.GetString(), property.name.GetStringLength()));
          writeProperty(w, property.value);
        }
      });
    }
  })};
}

}  // namespace

json::Raw elicitationCapability(ElicitationModes modes) {
  return json::Raw{json::buildObject([&](json::Writer& w) {
    if (modes.form) json::put(w, "form", json::Raw{"{}"});
    if (modes.url) json::put(w, "url", json::Raw{"{}"});
  })};
}

Result<acp::ElicitationRequest> elicitationFromMcp(const json::Value& params, ElicitationModes modes) {
  auto r = json::Reader::root(params);
  acp::ElicitationRequest request;
  request.message = r.str("message");
  const std::string mode = r.optStr("mode").value_or("form");  // before 2025-11-25, every elicitation was a form
  if (!r.ok()) return r.error();
  if (mode == "form") {
    if (!modes.form) return makeError(Errc::invalid_params, "params.mode: the editor cannot show forms");
    auto schema = formSchema(r);
    if (!schema) return schema.error();
    request.requestedSchema = std::move(schema).value();
    return request;
  }
  if (mode != "url") return makeError(Errc::invalid_params, "params.mode: unknown mode \"" + mode + "\"");
  if (!modes.url) return makeError(Errc::invalid_params, "params.mode: the editor cannot open URLs for a server");
  request.mode = acp::ElicitationRequest::Mode::url;
  request.url = r.str("url");
  request.elicitationId = r.str("elicitationId");
  if (!r.ok()) return r.error();
  return request;
}

json::Raw elicitationResultForMcp(const acp::ElicitationResponse& answer) {
  return json::Raw{json::buildObject([&](json::Writer& w) {
    json::put(w, "action", acp::toString(answer.action));
    if (answer.action == acp::ElicitationResponse::Action::accept) {
      json::put(w, "content", answer.content.empty() ? json::Raw{"{}"} : answer.content);
    }
  })};
}

}  // namespace lathe::tools::mcp
