// History contents to and from the recording's JSON.
#include "engine/persistence/content_codec.h"

#include "protocol/base/enum_names.h"

namespace lathe::engine::persist {
namespace {

// Roles in one letter: records hold many contents.
constexpr EnumName<Role> kRoles[] = {{Role::user, "u"}, {Role::model, "m"}};

void writePart(json::Writer& w, const Part& part) {
  json::object(w, [&] {
    if (part.text) json::put(w, "x", *part.text);
    if (part.thought) json::put(w, "th", true);
    if (!part.thoughtSignature.empty()) json::put(w, "sg", part.thoughtSignature);
    if (part.functionCall) {
      json::object(w, "fc", [&] {
        if (!part.functionCall->id.empty()) json::put(w, "id", part.functionCall->id);
        json::put(w, "n", part.functionCall->name);
        json::put(w, "a", part.functionCall->args);
      });
    }
    if (part.functionResponse) {
      json::object(w, "fr", [&] {
        if (!part.functionResponse->id.empty()) json::put(w, "id", part.functionResponse->id);
        json::put(w, "n", part.functionResponse->name);
        json::put(w, "r", part.functionResponse->response);
      });
    }
    if (part.inlineData) {
      json::object(w, "d", [&] {
        json::put(w, "m", part.inlineData->mimeType);
        json::put(w, "b", part.inlineData->data);
      });
    }
  });
}

Part readPart(json::Reader& r) {
  Part part;
  if (!r.expectObject()) return part;
  part.text = r.optStr("x");
  part.thought = r.optBool("th").value_or(false);
  part.thoughtSignature = r.optStr("sg").value_or("");
  if (auto call = r.optObject("fc")) {
    part.functionCall = FunctionCall{call->optStr("id").value_or(""), call->str("n"), call->rawMember("a")};
  }
  if (auto response = r.optObject("fr")) {
    part.functionResponse =
        FunctionResponse{response->optStr("id").value_or(""), response->str("n"), response->rawMember("r")};
  }
  if (auto data = r.optObject("d")) part.inlineData = InlineData{data->str("m"), data->str("b")};
  return part;
}

}  // namespace

void writeContents(json::Writer& w, const std::vector<Content>& contents, size_t from, size_t skipParts) {
  json::array(w, [&] {
    for (size_t i = from; i < contents.size(); ++i) {
      json::object(w, [&] {
        json::put(w, "r", nameOf(kRoles, contents[i].role));
        json::array(w, "p", [&] {
          const auto& parts = contents[i].parts;
          for (size_t k = (i == from ? skipParts : 0); k < parts.size(); ++k) writePart(w, parts[k]);
        });
      });
    }
  });
}

Content readContent(json::Reader& r) {
  Content content;
  if (!r.expectObject()) return content;
  if (auto role = valueOf(kRoles, r.str("r"))) {
    content.role = *role;
  } else {
    r.fail(r.path() + ".r", "expected \"u\" or \"m\"");
  }
  for (auto& part : r.array("p")) content.parts.push_back(readPart(part));
  return content;
}

}  // namespace lathe::engine::persist
